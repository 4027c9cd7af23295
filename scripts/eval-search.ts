/**
 * npm run eval:search [-- --db FILE] [--out FILE]
 * nDCG@10 of keyword-only, vector-only and hybrid search on the judged query set
 * (data/eval/queries.json, graded from data/seed/ground-truth.ndjson). Without
 * --db it builds data/seed into a temporary snapshot with the real builder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Snapshot } from '../src/query/snapshot.ts';
import { evaluateSearch, loadGroundTruth, loadJudgedQueries, MODES } from '../src/search/eval.ts';
import { buildSnapshot } from '../src/snapshot/build.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    out: { type: 'string', default: 'data/eval/results.json' },
    queries: { type: 'string', default: 'data/eval/queries.json' },
    truth: { type: 'string', default: 'data/seed/ground-truth.ndjson' },
    seed: { type: 'string', default: 'data/seed' },
  },
});

let dbFile = values.db;
let tmpDir: string | undefined;
if (!dbFile) {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-search-'));
  dbFile = path.join(tmpDir, 'seed.db');
  await buildSnapshot({ inputDir: values.seed, outFile: dbFile });
}

const snapshot = new Snapshot(dbFile);
try {
  const report = await evaluateSearch(snapshot, loadJudgedQueries(values.queries), loadGroundTruth(values.truth));
  const rows = MODES.map((m) => {
    const r = report.ndcgAt10[m];
    return { mode: m, all: r.all, dev: r.dev, heldout: r.heldout, ...r.byClass };
  });
  console.log(`nDCG@10 on ${report.queries} judged queries (embedder ${snapshot.meta.embedderName})`);
  console.table(rows);
  const gain = report.ndcgAt10.hybrid.all - report.ndcgAt10.keyword.all;
  console.log(`hybrid - keyword = ${gain.toFixed(3)} (target >= 0.100); unpublished returned: ${report.unpublishedReturned}`);
  fs.mkdirSync(path.dirname(values.out!), { recursive: true });
  fs.writeFileSync(values.out!, JSON.stringify({ embedder: snapshot.meta.embedderName, snapshotId: snapshot.id, ...report }, null, 1) + '\n');
  console.log(`written to ${values.out}`);
  if (report.unpublishedReturned > 0) process.exitCode = 1;
} finally {
  snapshot.close();
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
}
