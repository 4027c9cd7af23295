/**
 * npm run eval:search [-- --db FILE] [--external DIR] [--out FILE] [--verbose]
 * nDCG@10 per class (exact, paraphrase, cross-language, typo, city) of keyword-only,
 * the keyword side as hybrid runs it, vector-only, hybrid search and the AI
 * endpoint's ranking, on:
 *  - the project's judged set (data/eval/queries.json, graded from
 *    data/seed/ground-truth.ndjson); without --db, data/seed is built into a
 *    temporary snapshot with the real builder;
 *  - with --external DIR, a judged set written outside the project (DIR/dataset
 *    and DIR/queries.json with grade2/grade1 slugs), built the same way;
 * and beside each, the service-in-a-city check (src/search/eval-service-city.ts,
 * requests from data/eval/service-city.json) on that snapshot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ftsTopOverlap } from '../src/search/fts-overlap.ts';
import { evaluateExternal, EXTERNAL_MODES, loadExternalQueries } from '../src/search/eval-external.ts';
import { evaluateSearch, loadGroundTruth, loadJudgedQueries, MODES, type RankRequest } from '../src/search/eval.ts';
import { evaluateServiceInCity, loadServiceCityPhrases } from '../src/search/eval-service-city.ts';
import { Snapshot } from '../src/query/snapshot.ts';
import { recommend } from '../src/server/recommend.ts';
import { buildSnapshot } from '../src/snapshot/build.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    external: { type: 'string' },
    out: { type: 'string', default: 'data/eval/results.json' },
    queries: { type: 'string', default: 'data/eval/queries.json' },
    'service-city': { type: 'string', default: 'data/eval/service-city.json' },
    truth: { type: 'string', default: 'data/seed/ground-truth.ndjson' },
    seed: { type: 'string', default: 'data/seed' },
    verbose: { type: 'boolean', default: false },
  },
});

const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-search-'));
const recommendOf = (snapshot: Snapshot): RankRequest => async (q) =>
  (await recommend(snapshot, { q, city: null, limit: 10 })).data.map((item) => item.slug);

async function built(inputDir: string, name: string): Promise<Snapshot> {
  const outFile = path.join(tmpDir, `${name}.db`);
  const result = await buildSnapshot({ inputDir, outFile });
  for (const note of result.notes) console.log(`note: ${note}`);
  console.log(result.languageData);
  return new Snapshot(outFile);
}

const languageDataOf = (snapshot: Snapshot) =>
  (snapshot.db.prepare("SELECT value FROM snapshot_meta WHERE key = 'language_data'").pluck().get() as string | undefined) ?? 'none';

async function printFtsOverlap(snapshot: Snapshot, requests: string[]) {
  const all = (await ftsTopOverlap(snapshot, requests, 'and')).mean;
  const any = (await ftsTopOverlap(snapshot, requests, 'or')).mean;
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  console.log(`FTS5 MATCH by bm25 shares ${pct(all)} (every word required) / ${pct(any)} (any word, OR) of the API's top 10 on these requests`);
  return { and: all, or: any };
}

async function printServiceInCity(snapshot: Snapshot) {
  const report = await evaluateServiceInCity(snapshot, loadServiceCityPhrases(values['service-city']));
  console.log(
    `Service in a city (${report.requests} requests, ${report.cities.length} cities; ${report.supplied} where the snapshot has the service there): ` +
      `top 10 holds ${report.serviceInCity.toFixed(3)} of what it could, right service ${report.rightService.toFixed(3)}, in the city ${report.inCity.toFixed(3)}`,
  );
  if (values.verbose) for (const r of report.perRequest) console.log(`  ${r.serviceInCity === null ? '  -  ' : r.serviceInCity.toFixed(3)} ${r.rightService.toFixed(3)}  ${r.q}`);
  const { perRequest: _perRequest, ...summary } = report;
  return summary;
}

const CLASSES = ['exact', 'paraphrase', 'crosslang', 'typo', 'city'];
const results: Record<string, unknown> = {};
try {
  const own = values.db ? new Snapshot(values.db) : await built(values.seed, 'seed');
  try {
    const report = await evaluateSearch(own, loadJudgedQueries(values.queries), loadGroundTruth(values.truth), recommendOf(own));
    console.log(`\nThe project's judged set: nDCG@10 on ${report.queries} queries (embedder ${own.meta.embedderName}, language data ${languageDataOf(own)})`);
    const rows: Record<string, string | number>[] = MODES.map((m) => {
      const r = report.ndcgAt10[m];
      return { mode: m, all: r.all, dev: r.dev, heldout: r.heldout, ...r.byClass };
    });
    rows.push({ mode: 'recommend', all: report.recommend!.all, dev: '', heldout: '', ...report.recommend!.byClass });
    console.table(rows);
    const gain = report.ndcgAt10.hybrid.all - report.ndcgAt10.keyword.all;
    console.log(`hybrid - keyword = ${gain.toFixed(3)} (target >= 0.100); unpublished returned: ${report.unpublishedReturned}`);
    results.ftsTopOverlap = await printFtsOverlap(own, loadJudgedQueries(values.queries).map((q) => q.q));
    results.serviceInCity = await printServiceInCity(own);
    results.own = { embedder: own.meta.embedderName, languageData: languageDataOf(own), snapshotId: own.id, ...report };
    if (report.unpublishedReturned > 0) process.exitCode = 1;
  } finally {
    own.close();
  }

  if (values.external) {
    const dir = path.resolve(values.external);
    const snapshot = await built(path.join(dir, 'dataset'), 'external');
    try {
      const report = await evaluateExternal(snapshot, loadExternalQueries(dir), recommendOf(snapshot));
      console.log(`\nExternal judged set ${dir}: nDCG@10 on ${report.queries} queries`);
      console.table(EXTERNAL_MODES.map((m) => ({ mode: m, ...Object.fromEntries(CLASSES.map((c) => [c, report.ndcgAt10[m][c]])), all: report.ndcgAt10[m].all })));
      if (values.verbose) for (const p of report.perQuery) console.log(`${p.id.padEnd(10)} hybrid ${p.hybrid.toFixed(3)} vector ${p.vector.toFixed(3)} recommend ${p.recommend.toFixed(3)}  ${p.q}`);
      console.log(`unpublished or unknown providers returned: ${report.unknownReturned}`);
      results.externalFtsTopOverlap = await printFtsOverlap(snapshot, report.perQuery.map((p) => p.q));
      results.externalServiceInCity = await printServiceInCity(snapshot);
      results.external = { set: path.basename(dir), languageData: languageDataOf(snapshot), ...report };
      if (report.unknownReturned > 0) process.exitCode = 1;
    } finally {
      snapshot.close();
    }
  }
  fs.mkdirSync(path.dirname(values.out), { recursive: true });
  fs.writeFileSync(values.out, JSON.stringify(results, null, 1) + '\n');
  console.log(`written to ${values.out}`);
} finally {
  fs.rmSync(tmpDir, { recursive: true, force: true });
}
