/**
 * Worker: in-process search over the query mix through `searchProviders`, the
 * function /api/v1/search calls. Run as a child (one clean process per engine, so
 * RSS is the engine's own): `node bench/search-ours.ts --db FILE --queries N`.
 * Prints one JSON object (OursSearchResult) on stdout.
 *
 * Also measures vector recall@50 of the vector side against an exact scan of the
 * same vectors with the same filters, and hybrid nDCG@10 on the judged set (bench/ndcg.ts)
 * when --dataset names the dataset directory (for its ground truth).
 */
import { parseArgs } from 'node:util';
import { Snapshot } from '../src/query/snapshot.ts';
import { searchProviders, type SearchRequest } from '../src/search/search.ts';
import { warmSearch, type WarmReport } from '../src/search/warm.ts';
import { buildQueryMix, stratifiedSubset, type BenchQuery } from './queries.ts';
import { summarize, summarizeBy, type LatencySummary } from './stats.ts';
import { selfRssMb } from './machine.ts';
import { measureVectorRecall, type RecallResult } from './vector-recall.ts';
import { judgedNdcg, type NdcgResult } from './ndcg.ts';

export interface OursSearchResult {
  queries: number;
  openMs: number;
  /** warmSearch: indexes, synonym groups and filter sets computed before serving */
  warm: WarmReport;
  firstAnswerMs: number;
  latency: LatencySummary;
  byClass: Record<string, LatencySummary>;
  rssMb: number;
  peakRssMb: number | null;
  avgResults: number;
  recall: RecallResult | null;
  ndcg: NdcgResult | null;
}

export function toSearchRequest(query: BenchQuery): SearchRequest {
  return {
    query: query.q,
    filters: { ...(query.city ? { city: query.city } : {}), ...(query.categorySlug ? { categorySlug: query.categorySlug } : {}) },
    sort: 'relevance',
    page: 1,
    limit: 20,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, 'recall-queries': { type: 'string' }, dataset: { type: 'string' } } });
  if (!values.db) throw new Error('--db FILE is required');
  const count = Number(values.queries ?? 1000);
  const mix = buildQueryMix(count);

  const t0 = performance.now();
  const snapshot = new Snapshot(values.db);
  const openMs = performance.now() - t0;
  // What the server's snapshot holder does before it serves a snapshot.
  const warm = warmSearch(snapshot);
  await searchProviders(snapshot, toSearchRequest(mix[0]!));
  const firstAnswerMs = performance.now() - t0;

  // Warm-up with a different mix (statement cache, page cache, JIT), then measure.
  for (const q of buildQueryMix(50, 99)) await searchProviders(snapshot, toSearchRequest(q));

  const samples: { label: string; ms: number }[] = [];
  let results = 0;
  for (const query of mix) {
    const started = performance.now();
    const result = await searchProviders(snapshot, toSearchRequest(query));
    samples.push({ label: query.label, ms: performance.now() - started });
    results += result.items.length;
  }
  const recallQueries = Number(values['recall-queries'] ?? 200);
  const recall = recallQueries > 0 ? await measureVectorRecall(snapshot, stratifiedSubset(mix, recallQueries), 50) : null;
  const ndcg = values.dataset ? await judgedNdcg(snapshot, values.dataset) : null;
  const mem = selfRssMb();
  const out: OursSearchResult = {
    queries: mix.length,
    openMs,
    warm,
    firstAnswerMs,
    latency: summarize(samples.map((s) => s.ms)),
    byClass: summarizeBy(samples),
    rssMb: mem.rssMb,
    peakRssMb: mem.peakRssMb,
    avgResults: results / mix.length,
    recall,
    ndcg,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  snapshot.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
