/**
 * The external judged-set evaluation of `npm run eval:search -- --external DIR`
 * (src/search/eval-external.ts) on a set written here in that format: a
 * dataset folder and queries.json with grade2/grade1 slugs, built with the real builder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExternal, externalNdcg, loadExternalQueries, type ExternalReport } from '../../src/search/eval-external.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { recommend } from '../../src/server/recommend.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';

let dir: string;
let snapshot: Snapshot;
let report: ExternalReport;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'external-set-'));
  fs.cpSync('tests/fixtures/dataset-mini', path.join(dir, 'dataset'), { recursive: true });
  const queries = [
    { id: 'exact-01', class: 'exact', q: 'toko online wordpress', grade2: ['kopi-digital'], grade1: [] },
    { id: 'city-01', class: 'city', q: 'aplikasi android di Surabaya', grade2: ['nusantara-apps'], grade1: [] },
    { id: 'xlang-01', class: 'crosslang', q: 'komputasi awan', grade2: ['cikarang-cloud'], grade1: ['kopi-digital'] },
  ];
  fs.writeFileSync(path.join(dir, 'queries.json'), JSON.stringify({ queries }));
  const dbFile = path.join(dir, 'external.db');
  await buildSnapshot({ inputDir: path.join(dir, 'dataset'), outFile: dbFile });
  snapshot = new Snapshot(dbFile);
  const recommendSlugs = async (q: string) => (await recommend(snapshot, { q, city: null, limit: 10 })).data.map((d) => d.slug);
  report = await evaluateExternal(snapshot, loadExternalQueries(dir), recommendSlugs);
}, 120_000);

afterAll(() => {
  snapshot?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('evaluation on an external judged set', () => {
  it('scores nDCG@10 with gain 2^g - 1 against the ideal of every judged slug', () => {
    const query = { id: 'x', class: 'exact', q: 'x', grade2: ['a'], grade1: ['b'] };
    expect(externalNdcg(query, ['a', 'b'])).toBe(1);
    expect(externalNdcg(query, ['c'])).toBe(0);
    expect(externalNdcg(query, ['b', 'a'])).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)), 6);
  });

  it('reports every mode and recommend per class and overall, and finds the obvious answers', () => {
    expect(report.queries).toBe(3);
    for (const mode of ['keyword', 'keywordExpanded', 'vector', 'hybrid', 'recommend'] as const) {
      expect(Object.keys(report.ndcgAt10[mode]).sort()).toEqual(['all', 'city', 'crosslang', 'exact']);
    }
    expect(report.ndcgAt10.hybrid.exact).toBe(1);
    expect(report.ndcgAt10.recommend.city).toBe(1);
    expect(report.unknownReturned).toBe(0);
  });
});
