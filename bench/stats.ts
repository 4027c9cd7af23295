/**
 * Latency summaries for the benchmark: nearest-rank percentiles over raw samples.
 * Pure functions, unit-tested in tests/bench/stats.test.ts.
 */

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** Nearest-rank percentile (p in 0..100) of an ascending array; NaN for an empty one. */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sortedAscending[0]!;
  const rank = Math.ceil((p / 100) * n);
  return sortedAscending[Math.min(n, rank) - 1]!;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samplesMs).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.length ? sorted[sorted.length - 1]! : Number.NaN),
    meanMs: round(sorted.length ? sum / sorted.length : Number.NaN),
  };
}

/** Three significant decimals is plenty for milliseconds; keeps latest.json readable. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Groups samples by a label (query class) and summarizes each group. */
export function summarizeBy(samples: readonly { label: string; ms: number }[]): Record<string, LatencySummary> {
  const groups = new Map<string, number[]>();
  for (const s of samples) {
    const list = groups.get(s.label) ?? [];
    list.push(s.ms);
    groups.set(s.label, list);
  }
  const out: Record<string, LatencySummary> = {};
  for (const [label, list] of [...groups].sort(([a], [b]) => a.localeCompare(b))) out[label] = summarize(list);
  return out;
}

/** recall@k of `found` against the exact top-k `truth` (both lists of ids). */
export function recallAtK(found: readonly (number | string)[], truth: readonly (number | string)[], k: number): number {
  const expected = truth.slice(0, k);
  if (expected.length === 0) return 1;
  const got = new Set(found.slice(0, k));
  let hit = 0;
  for (const id of expected) if (got.has(id)) hit++;
  return hit / expected.length;
}
