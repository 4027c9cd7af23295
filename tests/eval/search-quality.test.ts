/**
 * The search quality target, as a test: on the judged query set
 * (data/eval/queries.json over data/seed, built with the real builder), hybrid
 * nDCG@10 is at least 0.10 above keyword-only BM25, on the whole set and on the
 * held-out half, and no unpublished provider is ever returned.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateSearch, loadGroundTruth, loadJudgedQueries, type EvalReport } from '../../src/search/eval.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { seedSnapshotCopy } from '../support/seed-snapshot.ts';

const TARGET_GAIN = 0.1;

let dir: string;
let snapshot: Snapshot;
let report: EvalReport;

beforeAll(async () => {
  let dbFile: string;
  ({ dir, dbFile } = await seedSnapshotCopy());
  snapshot = new Snapshot(dbFile);
  report = await evaluateSearch(snapshot, loadJudgedQueries('data/eval/queries.json'), loadGroundTruth('data/seed/ground-truth.ndjson'));
}, 120_000);

afterAll(() => {
  snapshot?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('search quality on the judged set', () => {
  it('judges 50 queries in five classes, half held out', () => {
    expect(report.queries).toBe(50);
    const classes = new Set(report.perQuery.map((p) => p.class));
    expect([...classes].sort()).toEqual(['city', 'crosslang', 'exact', 'paraphrase', 'typo']);
    expect(report.perQuery.filter((p) => p.split === 'heldout')).toHaveLength(25);
  });

  it('hybrid beats keyword-only BM25 by at least 0.10 nDCG@10, overall and held out', () => {
    const { keyword, hybrid } = report.ndcgAt10;
    expect(hybrid.all - keyword.all).toBeGreaterThanOrEqual(TARGET_GAIN);
    expect(hybrid.heldout - keyword.heldout).toBeGreaterThanOrEqual(TARGET_GAIN);
  });

  it('the fusion is worth having: hybrid is not below either side alone', () => {
    const { keywordExpanded, vector, hybrid } = report.ndcgAt10;
    expect(hybrid.all).toBeGreaterThanOrEqual(keywordExpanded.all);
    expect(hybrid.all).toBeGreaterThanOrEqual(vector.all);
  });

  it('never returns an unpublished provider', () => {
    expect(report.unpublishedReturned).toBe(0);
  });
});
