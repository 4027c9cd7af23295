/**
 * npm run bench: the whole benchmark of issue 7 in one run, side by side.
 *   1. snapshot  db:build at 100k (and 1M with --with-1m): wall time, peak RSS
 *   2. search    in-process searchProviders over the query mix, vector recall@50,
 *                hybrid nDCG@10 on the judged set
 *   3. orama     the peer engine on the same documents, vectors and queries
 *   4. http      autocannon against scripts/serve.ts and the plain node:http floor
 *   5. longtail  issue 11: thousands of distinct queries drawn from the providers' own
 *                text, in process and over HTTP (cache on and off), at 100k and, with
 *                --with-1m, at 1M: latency, req/s, cache hit rate, RSS, first answer
 *                (each size's snapshot read through first: bench/machine.ts readThrough)
 *   6. build     astro build at 100k: wall time, pages/s, peak RSS
 *   7. publish   issue 43: npm run rebuild at 100k (and 1M with --with-1m), the first release,
 *                then 1, 100 and 1,000 changed providers: wall time, each step, peak RSS, disk
 * Prints a table (stdout) and writes bench/results/latest.json. Progress lines go
 * to stderr on a terminal only. See bench/results/README.md.
 */
import fs from 'node:fs';
import { machineInfo, readThrough } from './machine.ts';
import { parseBenchArgs, USAGE, UsageError, type BenchOptions } from './args.ts';
import { ensureDataset, ensureSnapshot, snapshotFileFor } from './dataset.ts';
import { runLongTailHttp } from './long-tail-http.ts';
import { buildLongTailMix, longTailPath } from './long-tail-queries.ts';
import type { LongTailSearchResult } from './long-tail-search.ts';
import { runMeasured, scriptCommand } from './child.ts';
import { progress, warn } from './log.ts';
import { classTable, emptyResults, loadPrevious, publishTable, resultsTable, sizeLabel, writeResults, type BenchResults } from './results.ts';
import type { OursSearchResult } from './search-ours.ts';
import type { OramaSearchResult } from './search-orama.ts';
import { runHttp } from './http.ts';
import { runStaticBuild } from './static-build.ts';
import { runPublish } from './publish.ts';
import { round } from './stats.ts';

async function worker<T>(script: string, args: string[]): Promise<{ result: T; peakRssMb: number | null; seconds: number }> {
  const [cmd, argv] = scriptCommand(script, args);
  const run = await runMeasured(cmd, argv);
  if (run.exitCode !== 0) throw new Error(`${script} failed (exit ${run.exitCode ?? run.signal}):\n${run.stderr.slice(-3000)}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  return { result: JSON.parse(line) as T, peakRssMb: run.peakRssMb, seconds: run.seconds };
}

/** `npm run eval:search` on the bundled seed (the judged set's own corpus): the REST helper's figure. */
async function seedNdcg(): Promise<number | null> {
  const out = 'bench/cache/eval-seed.json';
  const [cmd, argv] = scriptCommand('scripts/eval-search.ts', ['--out', out]);
  const run = await runMeasured(cmd, argv);
  if (run.exitCode !== 0 && !fs.existsSync(out)) {
    warn(`eval:search on the seed failed (exit ${run.exitCode}): ${run.stderr.slice(-500)}`);
    return null;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { own: { ndcgAt10: { hybrid: { all: number } } } };
  return report.own.ndcgAt10.hybrid.all;
}

async function main(opts: BenchOptions): Promise<void> {
  const now = () => new Date().toISOString();
  const previous = loadPrevious(opts.out, opts.providers, opts.seed);
  const results: BenchResults = { ...emptyResults(machineInfo(), opts.providers, opts.seed), ...previous, machine: machineInfo() };
  results.measuredAt = { ...(previous?.measuredAt ?? {}) };
  // Written after every part: a failure later in the run keeps the figures so far.
  const save = () => writeResults(opts.out, results);

  const dataset = await ensureDataset(opts.providers, opts.seed, opts.fresh);
  // The publish part builds its own releases from the dataset: a run of it alone needs no snapshot here.
  const onlyPublish = [...opts.parts].every((p) => p === 'publish');
  const snap = onlyPublish ? { file: '', run: null } : await ensureSnapshot(dataset, { measure: opts.parts.has('snapshot'), fresh: opts.fresh });
  if (opts.parts.has('snapshot') && snap.run) {
    results.snapshot = { ...results.snapshot, seconds100k: round(snap.run.seconds, 1), peakRssMb100k: snap.run.peakRssMb, file: snap.file };
    results.snapshot.snapshotMb100k = Math.round(fs.statSync(snap.file).size / 1024 / 1024);
    results.measuredAt.snapshot = now();
    if (opts.with1m) {
      // kept in bench/cache (3.4 GB) for the long-tail part
      const big = await ensureDataset(1_000_000, opts.seed, opts.fresh);
      const bigSnap = await ensureSnapshot(big, { measure: true, fresh: true });
      results.snapshot = { ...results.snapshot, seconds1m: round(bigSnap.run!.seconds, 1), peakRssMb1m: bigSnap.run!.peakRssMb };
      results.snapshot.snapshotMb1m = Math.round(fs.statSync(bigSnap.file).size / 1024 / 1024);
      results.measuredAt.snapshot1m = now();
    }
  }
  save();

  let ours: OursSearchResult | undefined;
  let orama: OramaSearchResult | undefined;
  if (opts.parts.has('search')) {
    progress(`search: ${opts.queries} queries in process ...`);
    ours = (await worker<OursSearchResult>('bench/search-ours.ts', ['--db', snap.file, '--queries', String(opts.queries), '--dataset', dataset.dir])).result;
    const { latency } = ours;
    results.search = {
      ...results.search,
      ours: { p50Ms: latency.p50Ms, p95Ms: latency.p95Ms, p99Ms: latency.p99Ms, maxMs: latency.maxMs, meanMs: latency.meanMs, count: latency.count },
      oursByClass: ours.byClass,
      oursFirstAnswerMs: round(ours.firstAnswerMs, 1),
      oursRssMb: ours.rssMb,
      vectorRecallAt50: ours.recall?.mean ?? null,
      vectorRecall: ours.recall,
    };
    progress(`search: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, recall@50 ${ours.recall?.mean}`);
    results.search.hybridNdcgAt10 = ours.ndcg?.hybrid ?? null;
    results.search.ndcg = ours.ndcg;
    results.search.hybridNdcgAt10Seed = await seedNdcg();
    results.measuredAt.search = now();
  }
  save();
  if (opts.parts.has('orama')) {
    progress(`orama: indexing ${opts.providers.toLocaleString('en-US')} documents and ${opts.oramaQueries} hybrid queries (slow) ...`);
    const run = await worker<OramaSearchResult>('bench/search-orama.ts', ['--db', snap.file, '--queries', String(opts.queries), '--subset', String(opts.oramaQueries)]);
    orama = run.result;
    const { latency } = orama;
    results.search = {
      ...results.search,
      orama: { p50Ms: latency.p50Ms, p95Ms: latency.p95Ms, p99Ms: latency.p99Ms, maxMs: latency.maxMs, meanMs: latency.meanMs, count: latency.count },
      oramaByClass: orama.byClass,
      oramaIndexSeconds: round(orama.indexSeconds, 1),
      oramaFirstAnswerSeconds: round(orama.firstAnswerSeconds, 1),
      oramaRssMb: orama.rssMb,
      oramaPeakRssMb: run.peakRssMb,
      oramaQueries: orama.queries,
    };
    results.measuredAt.orama = now();
  }
  save();
  const s = results.search;
  if (s.ours && s.orama) s.ratio = { p50: round(s.orama.p50Ms / s.ours.p50Ms, 1), p99: round(s.orama.p99Ms / s.ours.p99Ms, 1) };

  if (opts.parts.has('http')) {
    const http = await runHttp(snap.file, { connections: opts.connections, seconds: opts.httpSeconds });
    results.http = { ...http };
    results.measuredAt.http = now();
  }
  save();
  if (opts.parts.has('longtail')) {
    const sizes: [string, string][] = [['100k', snap.file]];
    if (opts.with1m) {
      const big = await ensureDataset(1_000_000, opts.seed, opts.fresh);
      sizes.push(['1m', (await ensureSnapshot(big, { measure: false, fresh: false, out: snapshotFileFor(big) })).file]);
    }
    results.longTail = { ...(results.longTail ?? {}) };
    for (const [size, file] of sizes) {
      // from the page cache a serving node keeps, whatever the parts before left idle
      const readSeconds = readThrough(file);
      progress(`long tail ${size}: snapshot read through in ${readSeconds.toFixed(1)} s`);
      progress(`long tail ${size}: ${opts.longTailQueries} distinct queries in process ...`);
      const inProcess = (await worker<LongTailSearchResult>('bench/long-tail-search.ts', ['--db', file, '--queries', String(opts.longTailQueries)])).result;
      const paths = buildLongTailMix(file, opts.longTailQueries).map(longTailPath);
      // another draw (seed) for settling: none of the measured URLs is asked before the run
      const measured = new Set(paths);
      const settlePaths = buildLongTailMix(file, 1000, 29).map(longTailPath).filter((p) => !measured.has(p));
      const http = { connections: opts.connections, seconds: opts.longTailSeconds, settlePaths, serveProcesses: opts.serveProcesses, searchThreads: opts.searchThreads };
      const httpCached = await runLongTailHttp(file, paths, { ...http, cacheMb: null });
      const httpUncached = await runLongTailHttp(file, paths, { ...http, cacheMb: 0 });
      results.longTail[size] = { queries: paths.length, inProcess, httpCached, httpUncached };
      results.measuredAt[`longTail${size}`] = now();
      save();
    }
  }
  if (opts.parts.has('build')) {
    const build = await runStaticBuild(snap.file, opts.providers);
    results.build = { ...build };
    results.measuredAt.build = now();
  }
  save();
  if (opts.parts.has('publish')) {
    const sets = [dataset];
    if (opts.with1m) sets.push(await ensureDataset(1_000_000, opts.seed, opts.fresh));
    results.publish = { ...(results.publish ?? {}) };
    for (const set of sets) {
      const size = sizeLabel(set.providers);
      results.publish[size] = await runPublish(set);
      results.measuredAt[`publish${size}`] = now();
      save();
    }
  }

  process.stdout.write(`${resultsTable(results)}\n\n`);
  const byClassOurs = (results.search.oursByClass ?? undefined) as Parameters<typeof classTable>[0];
  const byClassOrama = (results.search.oramaByClass ?? undefined) as Parameters<typeof classTable>[1];
  if (byClassOurs || byClassOrama) process.stdout.write(`${classTable(byClassOurs, byClassOrama)}\n\n`);
  if (results.publish) process.stdout.write(`${publishTable(results.publish)}\n\n`);
  process.stdout.write(`wrote ${opts.out}\n`);
}

let options: BenchOptions;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`bench: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  throw err;
}
try {
  await main(options);
} catch (err) {
  warn((err as Error).stack ?? String(err));
  process.exit(1);
}
