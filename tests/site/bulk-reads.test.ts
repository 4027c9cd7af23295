/**
 * The static build's bulk reads give exactly what the per-page and per-list
 * queries they replace give (so 100k-page builds stay byte-identical to the
 * query-per-page version): every landing list and every (category, city) list a
 * provider page borrows from, ranked in one pass or one list at a time
 * (src/query/site-landing-lists.ts), equals programmaticProviders, and each
 * group's facts equal programmaticParams'; every provider page's data read 512 pages at a
 * time (src/site/provider-page-data.ts) equals providerPageData of
 * src/query/site-providers.ts, in slug order and out of order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { categoryTree } from '../../src/query/categories.ts';
import { programmaticParams, programmaticProviders } from '../../src/query/discovery.ts';
import { LANDING_HEAD, landingListsInOnePass, landingListsOneAtATime } from '../../src/query/site-landing-lists.ts';
import { providerPageData as perPageData, publishedSlugs } from '../../src/query/site-providers.ts';
import { marketFigures, tallyEveryCategory } from '../../src/query/reports.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { providerPageData } from '../../src/site/provider-page-data.ts';

let dir = '';
let snapshot: Snapshot;
/** A second connection for the reference reads, so no memo is shared between the two sides. */
let reference: Snapshot;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bulk-'));
  await generateDataset({ providers: 1500, seed: 7, outDir: path.join(dir, 'dataset') });
  await buildSnapshot({ inputDir: path.join(dir, 'dataset'), outFile: path.join(dir, 'directory.db') });
  snapshot = new Snapshot(path.join(dir, 'directory.db'));
  reference = new Snapshot(path.join(dir, 'directory.db'));
}, 120_000);

afterAll(() => {
  snapshot?.close();
  reference?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['in one pass', landingListsInOnePass],
  ['one at a time', landingListsOneAtATime],
])('landing lists ranked %s', (_, landingLists) => {
  it('equal programmaticProviders for every landing page (head, order and total) and programmaticParams for its facts', () => {
    const params = programmaticParams(reference);
    expect(params.length).toBeGreaterThan(20);
    const tree = categoryTree(reference);
    let longLists = 0;
    for (const p of params) {
      const expected = programmaticProviders(reference, tree.bySlug.get(p.categorySlug)!, { citySlug: p.citySlug }, { page: 1, limit: LANDING_HEAD });
      const got = landingLists(snapshot).top(p.categorySlug, p.citySlug, LANDING_HEAD);
      expect(got.total, p.path).toBe(expected.total);
      expect(got.data, p.path).toEqual(expected.data);
      expect(landingLists(snapshot).param(p.categorySlug, p.citySlug), p.path).toEqual(p);
      if (expected.total > 5) longLists++;
    }
    expect(longLists).toBeGreaterThan(0);
  });

  it('answer an empty list and no page for a pair with no listed provider, or a child category', () => {
    expect(landingLists(snapshot).top('no-such-category', 'nowhere', 5)).toEqual({ data: [], total: 0 });
    expect(landingLists(snapshot).param('no-such-category', 'nowhere')).toBeUndefined();
    const [first] = programmaticParams(reference);
    const child = categoryTree(reference).roots.find((r) => r.children.length > 0)!.children[0]!;
    expect(landingLists(snapshot).param(child.slug, first!.citySlug)).toBeUndefined();
    expect(landingLists(snapshot).top(child.slug, first!.citySlug, 5)).toEqual({ data: [], total: 0 });
  });
});

describe('provider page data read in chunks', () => {
  it('equals the per-page queries for every published provider, in slug order', () => {
    const slugs = publishedSlugs(reference);
    expect(slugs.length).toBeGreaterThan(600);
    for (const slug of slugs) expect(providerPageData(snapshot, slug, { lists: landingListsInOnePass(snapshot), pageSlugs: () => publishedSlugs(snapshot) }), slug).toEqual(perPageData(reference, slug));
  });

  it('equals them out of order too, and knows no unpublished slug', () => {
    const slugs = publishedSlugs(reference);
    for (const slug of [slugs.at(-1)!, slugs[0]!, slugs[700]!, slugs[3]!]) expect(providerPageData(snapshot, slug, { lists: landingListsOneAtATime(snapshot), pageSlugs: () => publishedSlugs(snapshot) })).toEqual(perPageData(reference, slug));
    const unpublished = reference.db.prepare("SELECT slug FROM providers WHERE submission_status <> 'approved' LIMIT 1").pluck().get() as string;
    expect(unpublished).toBeTypeOf('string');
    expect(providerPageData(snapshot, unpublished, { lists: landingListsInOnePass(snapshot), pageSlugs: () => publishedSlugs(snapshot) })).toBeUndefined();
    expect(providerPageData(snapshot, 'no-such-provider', { lists: landingListsInOnePass(snapshot), pageSlugs: () => publishedSlugs(snapshot) })).toBeUndefined();
  });

  it('equals them for a small publish\'s few pages, and for a page outside them', () => {
    const slugs = publishedSlugs(reference);
    const few = [slugs[5]!, slugs[300]!, slugs[301]!, slugs.at(-2)!];
    const sparse = new Snapshot(path.join(dir, 'directory.db'));
    try {
      const reads = { lists: landingListsOneAtATime(sparse), pageSlugs: () => few };
      for (const slug of [...few, slugs[100]!]) expect(providerPageData(sparse, slug, reads), slug).toEqual(perPageData(reference, slug));
    } finally {
      sparse.close();
    }
  });
});

describe('category figures tallied in one read', () => {
  it('equal each category\'s own read (marketFigures), a parent\'s with its children\'s providers', () => {
    const tallied = new Snapshot(path.join(dir, 'directory.db'));
    try {
      tallyEveryCategory(tallied);
      const tree = categoryTree(reference);
      for (const node of tree.byId.values()) expect(marketFigures(tallied, node, null), node.slug).toEqual(marketFigures(reference, node, null));
      const parent = tree.roots.find((r) => r.children.length > 0)!;
      expect(marketFigures(tallied, parent.node, null).figures.totalProviders).toBeGreaterThan(0);
    } finally {
      tallied.close();
    }
  });
});
