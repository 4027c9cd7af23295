/**
 * The in-memory structures search ranks with (issue 7), checked against SQL over a
 * real fixture snapshot: filter sets per clause and their intersections, term
 * posting lists and their block bounds, the published sort columns, warmSearch,
 * and the cost-bounded LRU they are kept in.
 */
import { describe, expect, it } from 'vitest';
import { allows, filterSet } from '../../src/query/filter-set.ts';
import { buildFilter } from '../../src/query/filters.ts';
import { CostBoundedLru } from '../../src/query/lru.ts';
import { BLOCK } from '../../src/search/posting-list.ts';
import { preloadTerms, termPostings } from '../../src/search/postings-store.ts';
import { publishedColumns } from '../../src/query/published-columns.ts';
import { primaryCategoryIndex } from '../../src/search/category-coherence.ts';
import { keywordCandidates } from '../../src/search/keyword-side.ts';
import { snapshotSynonyms } from '../../src/search/synonyms.ts';
import { expandedKeywordQuery } from '../../src/search/keyword-query.ts';
import { snapshotVocabulary } from '../../src/search/vocabulary.ts';
import { warmSearch } from '../../src/search/warm.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';
import { requestWords } from '../../src/query/nl-query.ts';

const open = useFixtureSnapshot();

const sqlRowids = (where: string, params: Record<string, unknown>) =>
  open.snapshot.db.prepare(`SELECT p.rowid FROM published_providers p WHERE ${where} ORDER BY p.rowid`).pluck().all(params) as number[];

describe('filter sets', () => {
  const city = () => open.snapshot.db.prepare('SELECT city FROM published_providers GROUP BY city ORDER BY count(*) DESC').pluck().get() as string;

  it('a filter of several clauses is exactly the rows the whole WHERE selects', () => {
    const filter = buildFilter(open.snapshot, { city: city(), minRating: 3.5, categorySlug: 'web-development' });
    expect(filter.clauses).toHaveLength(3);
    const expected = sqlRowids(filter.where, filter.params);
    expect(expected.length).toBeGreaterThan(0);
    const set = filterSet(open.snapshot, filter)!;
    expect([...set.rowids]).toEqual(expected);
    const passing = Array.from({ length: set.allowed.length * 32 }, (_, r) => r).filter((r) => allows(set.allowed, r));
    expect(passing).toEqual(expected);
  });

  it('the same clauses in another combination reuse nothing wrong', () => {
    const a = filterSet(open.snapshot, buildFilter(open.snapshot, { city: city() }))!;
    const b = filterSet(open.snapshot, buildFilter(open.snapshot, { city: city(), minTrustLevel: 4 }))!;
    const filter = buildFilter(open.snapshot, { city: city(), minTrustLevel: 4 });
    expect([...b.rowids]).toEqual(sqlRowids(filter.where, filter.params));
    expect(b.rowids.length).toBeLessThan(a.rowids.length);
  });

  it('a category, a parent category and a tag read from their own index are the rows the WHERE selects, each once', () => {
    const parents = open.snapshot.db
      .prepare('SELECT DISTINCT parent.slug FROM categories parent JOIN categories child ON child.parent_id = parent.id WHERE parent.active = 1')
      .pluck()
      .all() as string[];
    expect(parents.length).toBeGreaterThan(0);
    const tag = open.snapshot.db.prepare("SELECT value_key FROM provider_tags WHERE kind = 'capability' GROUP BY value_key ORDER BY count(*) DESC").pluck().get() as string;
    for (const f of [{ categorySlug: 'web-development' }, ...parents.map((categorySlug) => ({ categorySlug })), { capabilityTag: tag }]) {
      const filter = buildFilter(open.snapshot, f);
      expect(filter.clauses[0]!.rowids).toBeDefined();
      const expected = sqlRowids(filter.where, filter.params);
      expect([...filterSet(open.snapshot, filter)!.rowids], JSON.stringify(f)).toEqual(expected);
    }
  });

  it('an unknown category matches nothing', () => {
    expect(filterSet(open.snapshot, buildFilter(open.snapshot, { categorySlug: 'no-such-category', city: city() }))!.rowids.length).toBe(0);
  });
});

describe('keyword postings', () => {
  const query = (q: string) => expandedKeywordQuery(requestWords(q), snapshotVocabulary(open.snapshot), snapshotSynonyms(open.snapshot));

  it('a term list is in rowid order with the last rowid and largest contribution of each block', () => {
    const list = termPostings(open.snapshot, 'website');
    expect(list.rowids.length).toBeGreaterThan(BLOCK);
    expect([...list.rowids]).toEqual([...list.rowids].sort((x, y) => x - y));
    list.blockMax.forEach((m, b) => {
      const impacts = [...list.impacts.subarray(b * BLOCK, (b + 1) * BLOCK)];
      expect(m).toBe(Math.max(...impacts));
      expect(list.blockLast[b]).toBe(list.rowids[Math.min(list.rowids.length, (b + 1) * BLOCK) - 1]);
    });
    expect(list.max).toBe(Math.max(...list.blockMax));
    expect(termPostings(open.snapshot, 'website')).toBe(list); // kept per snapshot
    expect(termPostings(open.snapshot, 'no-such-term-at-all').rowids.length).toBe(0);
  });

  it('filtering before ranking: a filtered query is the unfiltered ranking restricted to the filter', () => {
    for (const q of ['toko online murah', 'aplikasi android', 'website', 'jasa seo jakarta']) {
      const kq = query(q);
      const filter = buildFilter(open.snapshot, { minTrustLevel: 3 });
      const allowed = new Set(filterSet(open.snapshot, filter)!.rowids);
      const everything = keywordCandidates(open.snapshot, kq, buildFilter(open.snapshot, {}), 100_000);
      const filtered = keywordCandidates(open.snapshot, kq, filter, 100_000);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered).toEqual(everything.filter((r) => allowed.has(r)));
      // and a small window is the head of the same ranking
      expect(keywordCandidates(open.snapshot, kq, filter, 5)).toEqual(filtered.slice(0, 5));
    }
  });
});

describe('published columns and warm-up', () => {
  it('hold every published provider and only those, with slug order as SQLite sorts it', () => {
    const columns = publishedColumns(open.snapshot);
    const rows = open.snapshot.db.prepare('SELECT rowid, slug, trust_level AS trust FROM published_providers').all() as { rowid: number; slug: string; trust: number }[];
    expect(columns.published.reduce((n, v) => n + v, 0)).toBe(rows.length);
    const bySlug = [...rows].sort((a, b) => (a.slug < b.slug ? -1 : 1));
    bySlug.forEach((r, i) => {
      expect(columns.slugRank[r.rowid]).toBe(i);
      expect(columns.trust[r.rowid]).toBe(r.trust);
    });
    const unpublished = open.snapshot.db.prepare("SELECT rowid FROM providers WHERE rowid NOT IN (SELECT rowid FROM published_providers)").pluck().all() as number[];
    expect(unpublished.length).toBeGreaterThan(0);
    for (const r of unpublished) expect(columns.published[r]).toBe(0);
  });

  it("hold each published provider's rating, reviews and primary category as the tables do", () => {
    const columns = publishedColumns(open.snapshot);
    const { byRowid, numbers } = primaryCategoryIndex(open.snapshot);
    const rows = open.snapshot.db
      .prepare(
        `SELECT p.rowid, p.overall_rating AS rating, p.total_reviews AS reviews, pc.category_id AS primaryId
         FROM published_providers p LEFT JOIN provider_categories pc ON pc.provider_rowid = p.rowid AND pc.position = 0`,
      )
      .all() as { rowid: number; rating: number; reviews: number; primaryId: string | null }[];
    expect(rows.filter((r) => r.primaryId !== null).length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(columns.rating[r.rowid]).toBe(r.rating);
      expect(columns.reviews[r.rowid]).toBe(r.reviews);
      expect(byRowid[r.rowid]).toBe(r.primaryId === null ? 0 : numbers.get(r.primaryId));
    }
    expect(new Set(numbers.values()).size).toBe(numbers.size);
  });

  it('warmSearch computes every service synonym group and the city and category filters', () => {
    const report = warmSearch(open.snapshot);
    expect(report.synonymGroups).toBe(snapshotSynonyms(open.snapshot).groups().length);
    const cities = open.snapshot.db.prepare('SELECT count(DISTINCT city) FROM published_providers').pluck().get() as number;
    expect(report.filterClauses).toBeGreaterThan(cities);
    // the fixture's lists all fit in the term lists' budget: every one is loaded
    expect(report.termLists).toBe(open.snapshot.db.prepare('SELECT count(*) FROM search_postings').pluck().get());
  });

  it('the warm-up loads the largest term lists first, as many as fit in the budget it is given', () => {
    const rows = open.snapshot.db.prepare('SELECT term, df FROM search_postings ORDER BY df DESC, term').all() as { term: string; df: number }[];
    expect([...preloadTerms(open.snapshot)]).toEqual(rows.map((r) => r.term));
    const costOf = (df: number) => 96 + 8 * df + 12 * Math.ceil(df / BLOCK);
    const budget = costOf(rows[0]!.df) + costOf(rows[1]!.df) + costOf(rows[2]!.df) + 1;
    expect([...preloadTerms(open.snapshot, budget)]).toEqual(rows.slice(0, 3).map((r) => r.term));
    // what the estimate counts is what the list costs once loaded
    const list = termPostings(open.snapshot, rows[0]!.term);
    expect(96 + list.rowids.byteLength + list.impacts.byteLength + 12 * list.blockLast.length).toBe(costOf(rows[0]!.df));
  });
});

describe('CostBoundedLru', () => {
  it('evicts the least recently used entries past its budget, never the newest', () => {
    const lru = new CostBoundedLru<string, number>(10);
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3, 4); // 12 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual([1, 3]);
    lru.set('huge', 4, 50); // over budget alone: kept, everything else goes
    expect(lru.size).toBe(1);
    expect(lru.get('huge')).toBe(4);
    lru.set('huge', 5, 2);
    expect(lru.cost).toBe(2);
  });
});
