/**
 * Incremental snapshots as search answers them (issue 43's equivalence): on a generated
 * dataset, an incremental build answers every query with the same top 10 (slugs and
 * order) as a full build made with the same frozen statistics; and on the seed's judged
 * set, hybrid nDCG@10 after 1% of the providers changed incrementally is within 0.005
 * of a plain full build of the same data (what the frozen statistics cost).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { buildChoosing } from '../../src/snapshot/build-choice.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { searchProviders } from '../../src/search/search.ts';
import { evaluateSearch, loadGroundTruth, loadJudgedQueries } from '../../src/search/eval.ts';
import { rewriteNdjson, tempDir } from './fixture.ts';
import { loadLanguageData } from '../../src/language/sources.ts';

const work = tempDir('incremental-search-');
const languageData = loadLanguageData();
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A copy of `from` with every `step`-th published provider's description extended by another provider's tagline. */
function changeEvery(from: string, to: string, share: number): number {
  fs.cpSync(from, to, { recursive: true });
  let changed = 0;
  rewriteNdjson(to, 'providers.ndjson', (providers) => {
    const published = providers.filter((p) => p.submissionStatus === 'approved' && p.publishedAt !== null);
    const step = Math.round(1 / share);
    for (let i = 0; i < published.length; i += step) {
      const donor = published[(i + published.length / 2) % published.length | 0]!;
      published[i]!.description = `${String(published[i]!.description)} ${String(donor.tagline)}`;
      changed++;
    }
  });
  return changed;
}

async function top10(file: string, queries: string[]): Promise<string[][]> {
  const snapshot = new Snapshot(file);
  try {
    const out: string[][] = [];
    for (const query of queries) {
      const r = await searchProviders(snapshot, { query, filters: {}, sort: 'relevance', page: 1, limit: 10 });
      out.push(r.items.map((hit) => hit.summary.slug));
    }
    return out;
  } finally {
    snapshot.close();
  }
}

describe('incremental snapshots, as search answers them', () => {
  const generated = path.join(work, 'generated');
  const files = { base: path.join(work, 'g-base.db'), inc: path.join(work, 'g-inc.db'), frozen: path.join(work, 'g-frozen.db') };
  let queries: string[] = [];

  beforeAll(async () => {
    await generateDataset({ providers: 2000, seed: 11, outDir: generated });
    await buildSnapshot({ inputDir: generated, outFile: files.base, languageData });
    const changedDir = path.join(work, 'generated-1pc');
    expect(changeEvery(generated, changedDir, 0.01)).toBeGreaterThan(10);
    const inc = await buildChoosing({ inputDir: changedDir, outFile: files.inc, base: files.base, languageData });
    expect(inc.line).toMatch(/^snapshot: incremental from /);
    await buildSnapshot({ inputDir: changedDir, outFile: files.frozen, frozenFrom: files.base, languageData });
    // Queries of the providers' own words: taglines of every 25th published provider, cut to 1-4 words.
    const lines = fs.readFileSync(path.join(changedDir, 'providers.ndjson'), 'utf8').split('\n').filter(Boolean);
    queries = lines
      .filter((_, i) => i % 25 === 0)
      .map((l, i) => String((JSON.parse(l) as { tagline: string }).tagline).split(/\s+/).slice(i % 3, (i % 3) + 1 + (i % 4)).join(' '))
      .filter((q) => q.length > 2);
  }, 300_000);

  it('answers each query with the same top 10 as a full build with the same frozen statistics', async () => {
    expect(queries.length).toBeGreaterThan(50);
    const inc = await top10(files.inc, queries);
    const frozen = await top10(files.frozen, queries);
    expect(inc.filter((slugs) => slugs.length > 0).length).toBeGreaterThan(queries.length / 2);
    expect(inc).toEqual(frozen);
  });

  it('moves the judged set nDCG@10 by less than 0.005 against a full build, after 1% changed', async () => {
    const seedBase = path.join(work, 's-base.db');
    const seedChanged = path.join(work, 'seed-1pc');
    await buildSnapshot({ inputDir: 'data/seed', outFile: seedBase, languageData });
    expect(changeEvery('data/seed', seedChanged, 0.01)).toBeGreaterThan(0);
    const inc = path.join(work, 's-inc.db');
    const full = path.join(work, 's-full.db');
    expect((await buildChoosing({ inputDir: seedChanged, outFile: inc, base: seedBase, languageData })).line).toMatch(/^snapshot: incremental from /);
    await buildSnapshot({ inputDir: seedChanged, outFile: full, languageData });
    const queries = loadJudgedQueries('data/eval/queries.json');
    const truth = loadGroundTruth('data/seed/ground-truth.ndjson');
    const ndcg = async (file: string) => {
      const snapshot = new Snapshot(file);
      try {
        return (await evaluateSearch(snapshot, queries, truth)).ndcgAt10.hybrid.all;
      } finally {
        snapshot.close();
      }
    };
    const [incremental, plain] = [await ndcg(inc), await ndcg(full)];
    expect(plain).toBeGreaterThan(0.8);
    expect(Math.abs(incremental - plain)).toBeLessThan(0.005);
  }, 120_000);
});
