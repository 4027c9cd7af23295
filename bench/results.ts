/**
 * latest.json: the shape issue 7 fixes (more keys welcome), and the table printed
 * from it. A partial run (--only/--skip) merges into the previous file, so the
 * parts it did not measure keep their last figures; each part records when it ran.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LongTailHttpRun } from './long-tail-http.ts';
import type { LongTailSearchResult } from './long-tail-search.ts';
import type { MachineInfo } from './machine.ts';
import type { PublishFigures, PublishRun } from './publish.ts';
import { REBUILD_STEPS } from '../src/ops/rebuild-steps.ts';
import type { LatencySummary } from './stats.ts';
import { renderTable, type Cell } from './table.ts';

export interface Latency3 {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface Rps {
  rps: number;
  p99Ms: number;
}

export interface BenchResults {
  machine: MachineInfo;
  providers: number;
  seed: number;
  search: {
    ours: (Latency3 & Partial<LatencySummary>) | null;
    orama: (Latency3 & Partial<LatencySummary>) | null;
    /** orama p50 / ours p50 (and p99): how many times faster ours is */
    ratio?: { p50: number; p99: number } | null;
    vectorRecallAt50?: number | null;
    hybridNdcgAt10?: number | null;
    [key: string]: unknown;
  };
  http: { search: Rps | null; detail: Rps | null; searchPlainNode: Rps | null; [key: string]: unknown };
  build: { seconds: number; pagesPerSecond: number; peakRssMb: number | null; [key: string]: unknown } | null;
  snapshot: { seconds100k: number | null; peakRssMb100k: number | null; seconds1m: number | null; peakRssMb1m: number | null; [key: string]: unknown };
  /** the long-tail part, per size ('100k', '1m') */
  longTail?: Record<string, LongTailFigures>;
  /** the publish part, per size ('100k', '1m') */
  publish?: Record<string, PublishFigures>;
  measuredAt: Record<string, string>;
}

export interface LongTailFigures {
  queries: number;
  inProcess: LongTailSearchResult;
  /** the response cache at its default size, and off */
  httpCached: LongTailHttpRun;
  httpUncached: LongTailHttpRun;
}

export function emptyResults(machine: MachineInfo, providers: number, seed: number): BenchResults {
  return {
    machine,
    providers,
    seed,
    search: { ours: null, orama: null, ratio: null, vectorRecallAt50: null, hybridNdcgAt10: null },
    http: { search: null, detail: null, searchPlainNode: null },
    build: null,
    snapshot: { seconds100k: null, peakRssMb100k: null, seconds1m: null, peakRssMb1m: null },
    measuredAt: {},
  };
}

/** The previous results for the same size and seed, to merge a partial run into. */
export function loadPrevious(file: string, providers: number, seed: number): Partial<BenchResults> | null {
  try {
    const prev = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
    return prev.providers === providers && prev.seed === seed ? prev : null;
  } catch {
    return null;
  }
}

export function writeResults(file: string, results: BenchResults): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

const REBUILD_STEP_NAMES = Object.keys(REBUILD_STEPS) as (keyof typeof REBUILD_STEPS)[];
/** From `npm run rebuild` to the atomic switch (what the targets time): the wall time but the steps after the switch. */
const AFTER_SWITCH = REBUILD_STEP_NAMES.slice(REBUILD_STEP_NAMES.indexOf('switch') + 1);
const toSwitch = (run: PublishRun) => Math.round((run.seconds - AFTER_SWITCH.reduce((sum, name) => sum + (run.steps[name] ?? 0), 0)) * 10) / 10;

const TARGETS = {
  searchP50: 3,
  searchP99: 15,
  recall: 0.95,
  httpSearchRps: 1500,
  httpSearchP99: 50,
  detailRps: 8000,
  detailP99: 20,
  prodOverPlain: 1.5,
  buildSeconds: 240,
  buildRssMb: 3072,
  snapshot100kSeconds: 60,
  snapshot1mSeconds: 600,
  snapshot1mRssMb: 2048,
  // issue 11: the long-tail mix
  longTail: {
    '100k': { p50: 1, p99: 3, rps: 1200, httpP99: 60 },
    '1m': { p50: 3, p99: 15, rps: 500, httpP99: 150, firstAnswerSeconds: 5, rssMb: 1536 },
  } as Record<string, { p50: number; p99: number; rps: number; httpP99: number; firstAnswerSeconds?: number; rssMb?: number }>,
};

const verdict = (ok: boolean | null) => (ok === null ? '' : ok ? 'ok' : 'MISS');
const le = (v: number | null | undefined, max: number) => (v === null || v === undefined ? null : v <= max);
const ge = (v: number | null | undefined, min: number) => (v === null || v === undefined ? null : v >= min);

/** The summary table: one row per figure, with its target and whether it is met. */
export function resultsTable(r: BenchResults): string {
  const s = r.search;
  const h = r.http;
  const ratio = h.search && h.searchPlainNode ? h.searchPlainNode.rps / Math.max(h.search.rps, 0.001) : null;
  const rows: Cell[][] = [
    ['search ours p50 ms', s.ours?.p50Ms, '<= 3', verdict(le(s.ours?.p50Ms, TARGETS.searchP50))],
    ['search ours p95 ms', s.ours?.p95Ms, '', ''],
    ['search ours p99 ms', s.ours?.p99Ms, '<= 15', verdict(le(s.ours?.p99Ms, TARGETS.searchP99))],
    ['search orama p50 ms', s.orama?.p50Ms, '', ''],
    ['search orama p95 ms', s.orama?.p95Ms, '', ''],
    ['search orama p99 ms', s.orama?.p99Ms, '', ''],
    ['orama/ours p50, p99 (x)', s.ratio ? `${s.ratio.p50.toFixed(0)}, ${s.ratio.p99.toFixed(0)}` : null, '', ''],
    ['vector recall@50', s.vectorRecallAt50, '>= 0.95', verdict(ge(s.vectorRecallAt50, TARGETS.recall))],
    ['hybrid nDCG@10', s.hybridNdcgAt10, 'no drop', ''],
    ['http search rps', h.search?.rps, '>= 1,500', verdict(ge(h.search?.rps, TARGETS.httpSearchRps))],
    ['http search p99 ms', h.search?.p99Ms, '<= 50', verdict(le(h.search?.p99Ms, TARGETS.httpSearchP99))],
    ['http detail rps', h.detail?.rps, '>= 8,000', verdict(ge(h.detail?.rps, TARGETS.detailRps))],
    ['http detail p99 ms', h.detail?.p99Ms, '<= 20', verdict(le(h.detail?.p99Ms, TARGETS.detailP99))],
    ['http list rps', (h.list as Rps | undefined)?.rps, '', ''],
    ['http list p99 ms', (h.list as Rps | undefined)?.p99Ms, '', ''],
    ['plain node:http search rps', h.searchPlainNode?.rps, '', ''],
    ['plain node:http search p99 ms', h.searchPlainNode?.p99Ms, '', ''],
    ['plain/production rps (x)', ratio, '<= 1.5', verdict(le(ratio, TARGETS.prodOverPlain))],
    // The same with the response cache off (API_RESPONSE_CACHE_MB=0): every request computed.
    ['http search rps, cache off', (h.searchUncached as Rps | undefined)?.rps, '', ''],
    ['http search p99 ms, cache off', (h.searchUncached as Rps | undefined)?.p99Ms, '', ''],
    ['http detail rps, cache off', (h.detailUncached as Rps | undefined)?.rps, '', ''],
    ['http detail p99 ms, cache off', (h.detailUncached as Rps | undefined)?.p99Ms, '', ''],
    ['plain node:http search rps, cache off', (h.searchPlainNodeUncached as Rps | undefined)?.rps, '', ''],
    ['plain/production rps, cache off (x)', h.productionOverPlainUncached as number | undefined, '', ''],
    ['static build s', r.build?.seconds, '<= 240', verdict(le(r.build?.seconds, TARGETS.buildSeconds))],
    ['static build pages/s', r.build?.pagesPerSecond, '', ''],
    ['static build peak RSS MB', r.build?.peakRssMb, '<= 3,072', verdict(le(r.build?.peakRssMb, TARGETS.buildRssMb))],
    ['snapshot 100k s', r.snapshot.seconds100k, '<= 60', verdict(le(r.snapshot.seconds100k, TARGETS.snapshot100kSeconds))],
    ['snapshot 100k peak RSS MB', r.snapshot.peakRssMb100k, '', ''],
    ['snapshot 1M s', r.snapshot.seconds1m, '<= 600', verdict(le(r.snapshot.seconds1m, TARGETS.snapshot1mSeconds))],
    ['snapshot 1M peak RSS MB', r.snapshot.peakRssMb1m, '<= 2,048', verdict(le(r.snapshot.peakRssMb1m, TARGETS.snapshot1mRssMb))],
  ];
  for (const [size, lt] of Object.entries(r.longTail ?? {})) rows.push(...longTailRows(size, lt));
  for (const [size, p] of Object.entries(r.publish ?? {})) rows.push(...publishRows(size, p));
  const m = r.machine;
  const head = `${r.providers.toLocaleString('en-US')} providers (seed ${r.seed}) on ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}`;
  return `${head}\n\n${renderTable(['figure', 'value', 'target', ''], rows)}`;
}

/** The per-class latency breakdown of the search part. */
export function classTable(ours: Record<string, LatencySummary> | undefined, orama: Record<string, LatencySummary> | undefined): string {
  const labels = [...new Set([...Object.keys(ours ?? {}), ...Object.keys(orama ?? {})])].sort();
  const rows = labels.map((l) => [l, ours?.[l]?.count, ours?.[l]?.p50Ms, ours?.[l]?.p99Ms, orama?.[l]?.count, orama?.[l]?.p50Ms, orama?.[l]?.p99Ms]);
  return renderTable(['query class', 'n', 'ours p50', 'ours p99', 'n', 'orama p50', 'orama p99'], rows);
}

const orNa = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v);

/** Rows of the long-tail part at one size. */
function longTailRows(size: string, lt: LongTailFigures): Cell[][] {
  const t = TARGETS.longTail[size];
  const p = lt.inProcess;
  const c = lt.httpCached;
  const u = lt.httpUncached;
  // with several server processes the RSS row is their sum: the label says so
  const setting = [u.serveProcesses > 1 && `${u.serveProcesses} server processes`, (u.searchThreads ?? 0) > 0 && `SEARCH_THREADS=${u.searchThreads}`].filter(Boolean).join(', ');
  const at = setting ? `long tail ${size} (${setting})` : `long tail ${size}`;
  return [
    [`${at}: in process p50 / p95 / p99 ms (${p.queries} queries)`, `${p.search.p50Ms} / ${p.search.p95Ms} / ${p.search.p99Ms}`, t ? `<= ${t.p50} / - / <= ${t.p99}` : '', t ? verdict(p.search.p50Ms <= t.p50 && p.search.p99Ms <= t.p99) : ''],
    [`${at}: keyword side alone p50 / p95 / p99 ms`, `${p.keyword.p50Ms} / ${p.keyword.p95Ms} / ${p.keyword.p99Ms}`, '', ''],
    [`${at}: vector side alone p50 / p95 / p99 ms`, `${p.vector.p50Ms} / ${p.vector.p95Ms} / ${p.vector.p99Ms}`, '', ''],
    [`${at}: in process first answer ms, RSS MB`, `${Math.round(p.firstAnswerMs)}, ${p.rssMb}`, '', ''],
    [`${at}: http cache off rps, p99 ms`, `${u.rps}, ${u.p99Ms}`, t ? `>= ${t.rps}, <= ${t.httpP99}` : '', t ? verdict(u.rps >= t.rps && u.p99Ms <= t.httpP99 && u.errors === 0 && u.timeouts === 0) : ''],
    [`${at}: http cache off errors, timeouts, non-2xx`, `${u.errors}, ${u.timeouts}, ${u.non2xx}`, '0, 0, 0', verdict(u.errors === 0 && u.timeouts === 0 && u.non2xx === 0)],
    [`${at}: http cache on rps, p99 ms, hit rate`, `${c.rps}, ${c.p99Ms}, ${orNa(c.cacheHitRate)}`, '', ''],
    [`${at}: http cache on errors, timeouts, non-2xx`, `${c.errors}, ${c.timeouts}, ${c.non2xx}`, '0, 0, 0', verdict(c.errors === 0 && c.timeouts === 0 && c.non2xx === 0)],
    [`${at}: server first answer s (cache on / off)`, `${c.firstAnswerSeconds} / ${u.firstAnswerSeconds}`, t?.firstAnswerSeconds ? `<= ${t.firstAnswerSeconds}` : '', t?.firstAnswerSeconds ? verdict(Math.max(c.firstAnswerSeconds, u.firstAnswerSeconds) <= t.firstAnswerSeconds) : ''],
    [`${at}: server start to full integrity check done s (cache on / off)`, `${c.verifiedSeconds} / ${u.verifiedSeconds}`, '', ''],
    [`${at}: server RSS MB after load (cache on / off)`, `${orNa(c.serverRssMb)} / ${orNa(u.serverRssMb)}`, t?.rssMb ? `<= ${t.rssMb}` : '', t?.rssMb ? verdict(le(Math.max(c.serverRssMb ?? 0, u.serverRssMb ?? 0), t.rssMb)) : ''],
  ];
}

/** 100000 -> 100k, 1000000 -> 1m: the keys of the per-size figures. */
export const sizeLabel = (n: number) => (n % 1_000_000 === 0 ? `${n / 1_000_000}m` : n % 1000 === 0 ? `${n / 1000}k` : String(n));

/** One row per publish in the summary table: its wall time. */
function publishRows(size: string, p: PublishFigures): Cell[][] {
  return p.runs.map((run) => [`publish ${size}: ${publishLabel(run)} s`, run.seconds, '', '']);
}

const publishLabel = (run: PublishRun) => (run.change === 'first' ? 'first release' : `${run.change.toLocaleString('en-US')} changed`);

/** The publish part's own table: per publish, its render, memory, disk and each step's seconds. */
export function publishTable(publish: Record<string, PublishFigures>): string {
  const rows: Cell[][] = [];
  for (const [size, p] of Object.entries(publish)) {
    for (const run of p.runs) {
      rows.push([
        `${size} ${publishLabel(run)}`,
        run.renderMode,
        run.seconds,
        toSwitch(run),
        ...REBUILD_STEP_NAMES.map((name) => run.steps[name]),
        run.liveCheckMs,
        run.peakRssMb,
        run.rebuildPeakRssMb,
        run.renderPeakRssMb,
        run.releasesMb,
      ]);
    }
  }
  return renderTable(['publish', 'render', 'wall s', 'to switch s', ...REBUILD_STEP_NAMES, 'live check ms', 'tree RSS MB', 'rebuild MB', 'render MB', 'releases MB'], rows);
}
