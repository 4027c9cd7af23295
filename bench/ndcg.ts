/**
 * Hybrid nDCG@10 on the judged query set (data/eval/queries.json) through the REST
 * helper's evaluation (src/search/eval.ts), graded with the ground truth of
 * the dataset the snapshot was built from (the generator writes
 * ground-truth.ndjson beside providers.ndjson), so it is measured at benchmark
 * scale: 100,000 providers compete for the top ten, not 500.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Snapshot } from '../src/query/snapshot.ts';
import { evaluateSearch, loadGroundTruth, loadJudgedQueries } from '../src/search/eval.ts';

export interface NdcgResult {
  queries: number;
  hybrid: number;
  keyword: number;
  vector: number;
  hybridByClass: Record<string, number>;
  unpublishedReturned: number;
  judgedSet: string;
}

export const JUDGED_QUERIES = 'data/eval/queries.json';

export async function judgedNdcg(snapshot: Snapshot, datasetDir: string, queriesFile = JUDGED_QUERIES): Promise<NdcgResult | null> {
  const truthFile = path.join(datasetDir, 'ground-truth.ndjson');
  if (!fs.existsSync(queriesFile) || !fs.existsSync(truthFile)) return null;
  const report = await evaluateSearch(snapshot, loadJudgedQueries(queriesFile), loadGroundTruth(truthFile));
  return {
    queries: report.queries,
    hybrid: report.ndcgAt10.hybrid.all,
    keyword: report.ndcgAt10.keyword.all,
    vector: report.ndcgAt10.vector.all,
    hybridByClass: report.ndcgAt10.hybrid.byClass,
    unpublishedReturned: report.unpublishedReturned,
    judgedSet: queriesFile,
  };
}
