/**
 * Hybrid search proven, not assumed, through searchProviders over a real fixture
 * snapshot: the vector side alone finds a paraphrase; a filter finds a provider
 * outside the unfiltered candidates; quality cases (category/industry wording,
 * ID/EN paraphrase, typo) find the intended provider in the top 5.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { categoryTree } from '../../src/query/categories.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { searchProviders, type SearchRequest } from '../../src/search/search.ts';
import { MIN_KEYWORD_WEIGHT } from '../../src/search/confidence.ts';
import { addCategoryCoherence, COHERENCE_TOP } from '../../src/search/category-coherence.ts';
import { keywordQuery, termsFoundIn } from '../../src/search/keyword-query.ts';
import { publishedRowBySlug } from '../../src/query/providers.ts';
import { buildVocabulary, vocabularyEntries } from '../../src/search/vocabulary.ts';
import { buildFixture, type Fixture } from '../http/fixture.ts';
import { requestWords } from '../../src/query/nl-query.ts';
import { recommend } from '../../src/server/recommend.ts';
import { normalizeTokens, tokenize } from '../../src/text/tokens.ts';
import type * as Tokens from '../../src/text/tokens.ts';

// Both tokenizers, counted: a request is read once (tokenize), and nothing below that reading tokenizes it again.
vi.mock('../../src/text/tokens.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof Tokens>();
  return { ...actual, tokenize: vi.fn(actual.tokenize), normalizeTokens: vi.fn(actual.normalizeTokens) };
});

let fixture: Fixture;
let snapshot: Snapshot;
let primaryCategory: Map<string, string>;

beforeAll(async () => {
  fixture = await buildFixture();
  snapshot = new Snapshot(fixture.dbFile);
  // categoryIds are primary first (docs/interface.md, "Dataset format"); hand-crafted records included.
  primaryCategory = new Map(fixture.providers.map((p) => [p.slug, p.categoryIds[0]!]));
});

afterAll(() => {
  snapshot?.close();
  if (fixture) fs.rmSync(fixture.dir, { recursive: true, force: true });
});

const search = (q: string, more: Partial<SearchRequest> = {}) =>
  searchProviders(snapshot, { query: q, filters: {}, sort: 'relevance', page: 1, limit: 5, ...more });

/** A provider's own text: name, tagline, description and tags (a hit carries only its summary's columns). */
function ownText(slug: string): string {
  const row = publishedRowBySlug(snapshot, slug)!;
  return [row.company_name, row.tagline, row.description, row.capability_tags, row.industry_focus].join(' ');
}

/** Every fused candidate of a query (all pages). */
async function allCandidates(q: string, filters: SearchRequest['filters'] = {}): Promise<string[]> {
  const slugs: string[] = [];
  for (let page = 1; ; page++) {
    const r = await search(q, { filters, page, limit: 50 });
    slugs.push(...r.items.map((i) => i.summary.slug));
    if (page >= r.meta.totalPages) return slugs;
  }
}

describe('plain keyword query', () => {
  const shown = (text: string) => keywordQuery(requestWords(text)).groups.map((g) => g.alternatives.map((a) => `${a.tokens.join(' ')}${a.prefix ? '*' : ''}`).join('|'));
  it('makes each word a group and prefix-matches the last one', () => {
    expect(shown('toko online develo')).toEqual(['toko', 'online', 'develo*']);
    expect(shown('NEAR(toko) AND "web" OR *')).toEqual(['near', 'toko', 'web']);
    expect(shown('jasa web ')).toEqual(['jasa', 'web']);
    expect(keywordQuery(requestWords('dan yang di')).terms).toEqual(['dan', 'yang', 'di']); // all stopwords: still searched
    expect(keywordQuery(requestWords('!!! ???')).groups).toEqual([]);
  });
});

describe('hybrid is proven', () => {
  it('a paraphrase returns its provider through the vector side only', async () => {
    // "checkout" appears in no profile and in no keyword synonym group ("murah" is
    // filler): the keyword side has no candidate, the vector side reaches e-commerce
    // profiles through the embedder's lexicon concept they share.
    const r = await search('checkout murah');
    expect(r.meta.rrf.keywordCandidates).toBe(0);
    const top = r.items[0]!;
    expect(top.search.keywordRank).toBe(r.meta.rrf.keywordCandidates + 1);
    expect(top.search.vectorRank).toBe(1);
    expect(primaryCategory.get(top.summary.slug)).toBe('cat-e-commerce');
  });

  it('a filter matching only a provider outside the unfiltered candidates still returns it', async () => {
    const unfiltered = await allCandidates('toko online');
    expect(unfiltered).not.toContain('kedai-kopi-terpencil');
    const filtered = await search('toko online', { filters: { city: 'Kota Terpencil' } });
    expect(filtered.items.map((i) => i.summary.slug)).toEqual(['kedai-kopi-terpencil']);
    expect(filtered.items[0]!.search.vectorRank).toBe(1);
    expect(filtered.meta.total).toBe(1);
  });

  it('ranks absent from a side are that side\'s candidate count + 1 and add nothing', async () => {
    const r = await search('toko online', { limit: 50 });
    for (const hit of r.items) {
      const { keywordRank, vectorRank, rrfScore } = hit.search;
      const part = (rank: number, n: number, weight: number) => (rank <= n ? weight / (60 + rank) : 0);
      const { keywordCandidates, vectorCandidates, keywordWeight } = r.meta.rrf;
      expect(rrfScore).toBeCloseTo(part(keywordRank, keywordCandidates, keywordWeight) + part(vectorRank, vectorCandidates, 1) + hit.search.categoryShare / 61 + (hit.search.namedService ? 1 / 61 : 0), 12);
    }
  });
});

describe('category coherence', () => {
  it("each candidate's categoryShare is its primary category's share of the plain RRF score of the top 10 both sides returned", async () => {
    const r = await search('toko online', { limit: 1000 });
    expect(r.items).toHaveLength(r.meta.total);
    const { keywordCandidates, vectorCandidates } = r.meta.rrf;
    const top = r.items
      .filter((hit) => hit.search.keywordRank <= keywordCandidates && hit.search.vectorRank <= vectorCandidates)
      .map((hit) => ({ category: primaryCategory.get(hit.summary.slug)!, score: hit.search.rrfScore - hit.search.categoryShare / 61 - (hit.search.namedService ? 1 / 61 : 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, COHERENCE_TOP);
    const total = top.reduce((sum, t) => sum + t.score, 0);
    for (const hit of r.items) {
      const own = top.filter((t) => t.category === primaryCategory.get(hit.summary.slug)).reduce((sum, t) => sum + t.score, 0);
      expect(hit.search.categoryShare).toBeCloseTo(own / total, 9);
    }
    expect(r.items[0]!.search.categoryShare).toBeGreaterThan(0.5);
  });

  it('a request naming a service marks exactly the providers whose primary category is it (or a child of it)', async () => {
    const tree = categoryTree(snapshot);
    const named = (slug: string) => {
      const node = tree.bySlug.get(slug)!;
      return new Set([node.id, ...tree.roots.filter((r) => r.node.id === node.id).flatMap((r) => r.children.map((c) => c.id))]);
    };
    for (const [q, slug] of [['jasa olshop', 'e-commerce'], ['aplikasi mobile', 'mobile-app-development']] as const) {
      const r = await search(q, { limit: 1000 });
      const ids = named(slug);
      for (const hit of r.items) expect(hit.search.namedService).toBe(ids.has(primaryCategory.get(hit.summary.slug)!));
      expect(r.items.filter((hit) => hit.search.namedService).length).toBeGreaterThan(0);
      expect(r.items[0]!.search.namedService).toBe(true);
    }
    // no service named: no provider marked
    expect((await search('Kota Terpencil', { limit: 1000 })).items.every((hit) => !hit.search.namedService)).toBe(true);
  });

  // rowids 1-4 and 6: category 1; rowid 5: category 2. Ranks: both sides returned rowids 1-6 (2 lists of 6).
  const categories = Int32Array.from([0, 1, 1, 1, 1, 2, 1]);
  const candidates = (order: number[], keywordOnly: number[] = []) =>
    order.map((rowid, i) => ({ rowid, keywordRank: i + 1, vectorRank: keywordOnly.includes(rowid) ? 7 : i + 1, rrfScore: 2 / (61 + i), categoryShare: 0 }));

  const byPlainScore = (a: { rrfScore: number }, b: { rrfScore: number }) => b.rrfScore - a.rrfScore;

  it('lifts a provider of the category the top agrees on over a lone off-topic match', () => {
    const byScore = candidates([1, 5, 2, 3, 4, 6]);
    addCategoryCoherence(byScore, byPlainScore, categories, 60, { keyword: 6, vector: 6 });
    const score = new Map(byScore.map((c) => [c.rowid, c.rrfScore]));
    expect(score.get(6)!).toBeGreaterThan(score.get(5)!);
    const total = byScore.reduce((s, _, i) => s + 2 / (61 + i), 0);
    expect(byScore.find((c) => c.rowid === 5)!.categoryShare).toBeCloseTo(2 / 62 / total, 12);
  });

  it('counts only candidates both sides returned as votes', () => {
    // rowid 5 only from the keyword side (a word no other profile holds): it does not vote, so its category gets no share.
    const byScore = candidates([5, 1, 2, 3, 4, 6], [5]);
    addCategoryCoherence(byScore, byPlainScore, categories, 60, { keyword: 6, vector: 6 });
    expect(byScore.find((c) => c.rowid === 5)!.categoryShare).toBe(0);
    expect(byScore.find((c) => c.rowid === 6)!.categoryShare).toBe(1);
  });
});

describe('the keyword side', () => {
  const keywordOnly = (q: string, limit = 20) =>
    search(q, { limit, sides: { keyword: true, vector: false } });

  it('ranks profiles matching every topic of the query before profiles matching some', async () => {
    // "toko online" is a synonym group (e-commerce); "Surabaya" a second topic.
    const inCity = fixture.providers.filter((p) => p.city === 'Surabaya' && p.publishedAt && p.submissionStatus === 'approved');
    const r = await keywordOnly('toko online surabaya', 50);
    const cities = r.items.map((i) => i.summary.city);
    const firstElsewhere = cities.findIndex((c) => c !== 'Surabaya');
    expect(firstElsewhere).toBeGreaterThan(0);
    expect(cities.slice(firstElsewhere).every((c) => c !== 'Surabaya')).toBe(true);
    expect(inCity.length).toBeGreaterThan(0);
  });

  it('finds a service through its synonyms in the other language', async () => {
    // "olshop" is in no profile: its group (toko online, e-commerce, ...) is what matches.
    const r = await keywordOnly('olshop', 5);
    expect(r.meta.rrf.keywordCandidates).toBeGreaterThan(0);
    expect(r.items.every((i) => primaryCategory.get(i.summary.slug) === 'cat-e-commerce')).toBe(true);
  });

  it('corrects a typo to the indexed word and reports the corrected term', async () => {
    // Not the last word: a last word is first read as typed halfway ("wordpres" -> wordpress*).
    const r = await keywordOnly('wordpres andriod ', 5);
    expect(r.meta.terms).toEqual(['wordpress', 'android']);
    expect(termsFoundIn(ownText(r.items[0]!.summary.slug), { terms: r.meta.terms, prefixLast: false })).toEqual(['wordpress', 'android']);
    const plain = await search('wordpres andriod ', { limit: 5, sides: { keyword: true, vector: false, plainKeyword: true } });
    expect(plain.meta.rrf.keywordCandidates).toBe(0);
  });

  it('the keyword list counts fully when its best match holds the query\'s words, less when it matched through synonyms', async () => {
    const best = (await keywordOnly('wordpress android', 1)).items[0]!.summary.slug;
    expect(termsFoundIn(ownText(best), { terms: ['wordpress', 'android'], prefixLast: false })).toEqual(['wordpress', 'android']);
    const exact = await search('wordpress android');
    expect(exact.meta.rrf.keywordWeight).toBe(1);
    // "olshop" is in no profile: the keyword side reaches e-commerce profiles through its synonym group only.
    const synonym = await search('olshop');
    expect(synonym.meta.rrf.keywordCandidates).toBeGreaterThan(0);
    expect(synonym.meta.rrf.keywordWeight).toBe(MIN_KEYWORD_WEIGHT);
    for (const hit of synonym.items) {
      const keywordPart = hit.search.keywordRank <= synonym.meta.rrf.keywordCandidates ? MIN_KEYWORD_WEIGHT / (60 + hit.search.keywordRank) : 0;
      const vectorPart = hit.search.vectorRank <= synonym.meta.rrf.vectorCandidates ? 1 / (60 + hit.search.vectorRank) : 0;
      expect(hit.search.rrfScore).toBeCloseTo(keywordPart + vectorPart + hit.search.categoryShare / 61 + (hit.search.namedService ? 1 / 61 : 0), 12);
    }
  });

  it('search_postings holds the same terms and document frequencies as the FTS5 index analysts read', () => {
    const fromPostings = vocabularyEntries(snapshot);
    // fts5vocab lives in temp, which the read-only serving connection may not create
    const db = new Database(snapshot.file, { readonly: true });
    db.exec("CREATE VIRTUAL TABLE temp.fts_vocab USING fts5vocab(main, fts_providers, 'row')");
    const fromFts = db.prepare('SELECT term, doc FROM temp.fts_vocab').all() as typeof fromPostings;
    db.close();
    const asMap = (entries: typeof fromPostings) => new Map(entries.map((e) => [e.term, e.doc]));
    expect(asMap(fromPostings)).toEqual(asMap(fromFts));
    expect(buildVocabulary(fromPostings).corrections('andriod')).toEqual(['android']);
  });
});

describe('search quality (top 5)', () => {
  it('finds a provider through its industry wording only', async () => {
    const r = await search('kuliner langka');
    expect(r.items.map((i) => i.summary.slug)).toContain('kedai-kopi-terpencil');
  });

  it('finds a provider through its category wording', async () => {
    const r = await search('video production', { filters: { city: 'Kota Terpencil' } });
    expect(r.items.map((i) => i.summary.slug)).toContain('kedai-kopi-terpencil');
    const plain = await search('penetration testing');
    expect(plain.items.slice(0, 5).some((i) => primaryCategory.get(i.summary.slug) === 'cat-penetration-testing')).toBe(true);
  });

  it('an Indonesian/English paraphrase finds the intended service', async () => {
    for (const [q, category] of [['online shop builder', 'cat-e-commerce'], ['pembuatan aplikasi iphone', 'cat-ios'], ['keamanan siber perusahaan', 'cat-security-compliance']] as const) {
      const r = await search(q);
      expect(r.items.some((i) => primaryCategory.get(i.summary.slug) === category), q).toBe(true);
    }
  });

  it('a typo finds the intended service', async () => {
    for (const [q, category] of [['aplikasi andriod', 'cat-android'], ['webiste toko onlien', 'cat-e-commerce'], ['wordpres', 'cat-wordpress']] as const) {
      const r = await search(q);
      expect(r.items.some((i) => primaryCategory.get(i.summary.slug) === category), q).toBe(true);
    }
  });
});

describe('the request is read once', () => {
  const q = 'jasa pembuatan website toko online di Bandung budget 50 juta';
  const clear = () => {
    vi.mocked(tokenize).mockClear();
    vi.mocked(normalizeTokens).mockClear();
  };

  it('a search tokenizes its text once; the keyword side, the embedder and the named service take that reading', async () => {
    await search('aplikasi android di Surabaya'); // the snapshot's tables (synonyms, phrase tables) are built on first use
    clear();
    const r = await search(q, { limit: 10 });
    expect(r.items.length).toBeGreaterThan(0);
    expect(tokenize).toHaveBeenCalledTimes(1);
    expect(tokenize).toHaveBeenCalledWith(q);
    expect(normalizeTokens).not.toHaveBeenCalled();
  });

  it('AI recommend reads the request once for its filters, its searches and its reasons', async () => {
    await recommend(snapshot, { q: 'aplikasi android di Surabaya', city: null, limit: 10 });
    clear();
    const inSearches: number[] = [];
    const counted = async (s: Snapshot, request: SearchRequest) => {
      const before = vi.mocked(tokenize).mock.calls.length + vi.mocked(normalizeTokens).mock.calls.length;
      const result = await searchProviders(s, request);
      inSearches.push(vi.mocked(tokenize).mock.calls.length + vi.mocked(normalizeTokens).mock.calls.length - before);
      return result;
    };
    const answer = await recommend(snapshot, { q, city: null, limit: 10 }, performance.now(), counted);
    expect(answer.data.length).toBeGreaterThan(0);
    expect(tokenize).toHaveBeenCalledTimes(1);
    expect(inSearches.length).toBeGreaterThan(0);
    expect(inSearches.every((n) => n === 0)).toBe(true);
    // the reasons tokenize the providers' own text, never a part of the request
    const request = new Set([q, answer.meta.understood.searchText, ...answer.meta.understood.services.map((s) => s.matched)]);
    expect(vi.mocked(normalizeTokens).mock.calls.filter(([text]) => request.has(text))).toEqual([]);
  });
});
