/** GET /api/v1/search over HTTP: errors, q normalization, ranks and their contract, pagination. */
import { describe, expect, it } from 'vitest';
import { ctx, expectError, get } from './api-context.ts';
import { REGIONS } from '../../src/text/lexicon/places.ts';

interface Item {
  slug: string;
  trustLevel: number;
  city: string | null;
  province: string | null;
  search: { source: string; rrfScore: number; keywordRank: number; vectorRank: number; categoryShare: number; namedService: boolean; place: string | null };
}

export function searchCases(): void {
  describe('GET /api/v1/search', () => {
    it('400 QUERY_REQUIRED and QUERY_TOO_SHORT', async () => {
      expectError(await get('/api/v1/search'), 400, 'QUERY_REQUIRED');
      expectError(await get('/api/v1/search?q='), 400, 'QUERY_REQUIRED');
      expectError(await get('/api/v1/search?q=%20%20%09'), 400, 'QUERY_REQUIRED');
      expectError(await get('/api/v1/search?q=a'), 400, 'QUERY_TOO_SHORT');
      expectError(await get('/api/v1/search?q=%20b%20'), 400, 'QUERY_TOO_SHORT');
      expectError(await get('/api/v1/search?q=%F0%9F%98%80'), 400, 'QUERY_TOO_SHORT'); // one emoji = one code point
    });

    it('accepts 2 code points and cuts q to 200 code points', async () => {
      expect((await get('/api/v1/search?q=%F0%9F%98%80%F0%9F%98%80')).status).toBe(200);
      const long = 'toko online '.repeat(40);
      const r = await get(`/api/v1/search?q=${encodeURIComponent(long)}`);
      expect(r.status).toBe(200);
      expect([...r.body.meta.q].length).toBeLessThanOrEqual(200);
      expect(r.body.meta.q).toBe([...long.trim()].slice(0, 200).join('').trim());
    });

    it('items carry integer ranks and rrfScore as docs/interface.md defines them', async () => {
      const r = await get('/api/v1/search?q=toko%20online%20murah&limit=50');
      const { rrf, total } = r.body.meta;
      expect(r.body.meta).toMatchObject({ page: 1, limit: 50, source: 'hybrid', sort: 'relevance', q: 'toko online murah' });
      expect(r.body.meta.understood).toMatchObject({ place: null, searchText: 'toko online murah' });
      expect(rrf.k).toBe(60);
      expect(rrf.keywordWeight).toBeGreaterThan(0);
      expect(rrf.keywordWeight).toBeLessThanOrEqual(1);
      expect(total).toBe(rrf.mergedCandidates);
      expect(rrf.keywordCandidates).toBeGreaterThan(0);
      expect(rrf.vectorCandidates).toBeGreaterThan(0);
      const items: Item[] = r.body.data;
      expect(items.length).toBeGreaterThan(0);
      for (const { search } of items) {
        expect(search.source).toBe('hybrid');
        expect(Number.isInteger(search.keywordRank) && Number.isInteger(search.vectorRank)).toBe(true);
        expect(search.keywordRank).toBeGreaterThanOrEqual(1);
        expect(search.keywordRank).toBeLessThanOrEqual(rrf.keywordCandidates + 1);
        expect(search.vectorRank).toBeLessThanOrEqual(rrf.vectorCandidates + 1);
        const expected =
          (search.keywordRank <= rrf.keywordCandidates ? rrf.keywordWeight / (60 + search.keywordRank) : 0) +
          (search.vectorRank <= rrf.vectorCandidates ? 1 / (60 + search.vectorRank) : 0) +
          (rrf.termWeight * (search.categoryShare + (search.namedService ? 1 : 0))) / 61;
        expect(search.categoryShare).toBeGreaterThanOrEqual(0);
        expect(search.categoryShare).toBeLessThanOrEqual(1);
        expect(search.rrfScore).toBeCloseTo(expected, 12);
        expect(search.place).toBeNull();
      }
      for (let i = 1; i < items.length; i++) {
        const [a, b] = [items[i - 1]!, items[i]!];
        const ordered =
          a.search.rrfScore > b.search.rrfScore ||
          (a.search.rrfScore === b.search.rrfScore && (a.trustLevel > b.trustLevel || (a.trustLevel === b.trustLevel && a.slug < b.slug)));
        expect(ordered, `${a.slug} before ${b.slug}`).toBe(true);
      }
      const keywordRanks = items.map((i) => i.search.keywordRank).filter((k) => k <= rrf.keywordCandidates);
      expect(new Set(keywordRanks).size).toBe(keywordRanks.length);
    });

    it('reads the place q names as a ranking tier, not a filter, and leaves its words out of the ranking', async () => {
      const r = await get('/api/v1/search?q=toko%20online%20di%20Jakarta%20Selatan&limit=50');
      const { understood } = r.body.meta;
      expect(understood.place).toEqual({ kind: 'city', name: 'Jakarta Selatan', matched: 'jakarta selatan', cities: [] });
      expect(understood.services.map((s: { slug: string }) => s.slug)).toEqual(['e-commerce']);
      expect(understood.searchText).toBe('toko online');
      const items: Item[] = r.body.data;
      expect(new Set(items.map((i) => i.search.place))).toEqual(new Set(['in', 'near', 'elsewhere']));
      // in: the city; near: its province or Jabodetabek (src/text/lexicon/places.ts); elsewhere: the rest
      const jabodetabek = new Set(REGIONS.jabodetabek);
      const expectedPlace = (i: Item) => (i.city === 'Jakarta Selatan' ? 'in' : i.province === 'DKI Jakarta' || jabodetabek.has(i.city ?? '') ? 'near' : 'elsewhere');
      for (const i of items) expect(i.search.place, i.slug).toBe(expectedPlace(i));
      // the providers that answer it (e-commerce, within half of the best score): in the city, then near it, then the rest
      const best = Math.max(...items.map((i) => i.search.rrfScore));
      const answering = items.filter((i) => i.search.namedService && i.search.rrfScore >= best / 2);
      const tier = { in: 0, near: 1, elsewhere: 2 } as const;
      expect(answering.length).toBeGreaterThan(3);
      expect(items.slice(0, answering.length)).toEqual(answering);
      for (let i = 1; i < answering.length; i++) {
        const [a, b] = [answering[i - 1]!.search, answering[i]!.search];
        expect(tier[a.place as keyof typeof tier] < tier[b.place as keyof typeof tier] || (a.place === b.place && a.rrfScore >= b.rrfScore)).toBe(true);
      }
      // the city filter still filters; a request without a place keeps every place null
      const filtered = (await get('/api/v1/search?q=toko%20online%20di%20Jakarta%20Selatan&city=Bandung&limit=50')).body.data as Item[];
      expect(filtered.length).toBeGreaterThan(0);
      for (const i of filtered) expect([i.city?.toLowerCase(), i.search.place], i.slug).toEqual(['bandung', 'elsewhere']);
    });

    it('ranks are stable across pages and pages do not overlap', async () => {
      const all = (await get('/api/v1/search?q=aplikasi%20mobile&limit=20')).body.data as Item[];
      const p2 = (await get('/api/v1/search?q=aplikasi%20mobile&limit=10&page=2')).body;
      expect(p2.data.map((i: Item) => i.slug)).toEqual(all.slice(10, 20).map((i) => i.slug));
      expect(p2.data.map((i: Item) => i.search)).toEqual(all.slice(10, 20).map((i) => i.search));
      const past = await get('/api/v1/search?q=aplikasi%20mobile&page=500');
      expect(past.body.data).toEqual([]);
      expect(past.body.meta.total).toBe(p2.meta.total);
    });

    it('sorts fused candidates by rating, trust or reviews when asked; unknown sort is relevance', async () => {
      const r = await get('/api/v1/search?q=website&sort=rating&limit=50');
      const ratings = r.body.data.map((i: { overallRating: string }) => Number(i.overallRating));
      expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
      expect((await get('/api/v1/search?q=website&sort=nonsense')).body.meta.sort).toBe('relevance');
    });

    it('never returns an unpublished provider, even on its unique word', async () => {
      const r = await get('/api/v1/search?q=secretunpublishedword');
      expect(r.status).toBe(200);
      expect(r.body.data.map((i: Item) => i.slug)).not.toContain('approved-not-published');
      const hostile = await get('/api/v1/search?q=zyxwvut');
      expect(hostile.body.data[0].slug).toBe('hostile-name-co');
      expect(hostile.body.data[0].search.keywordRank).toBe(1);
    });

    it('applies the directory filters to both sides', async () => {
      const r = await get('/api/v1/search?q=website&city=Jakarta%20Selatan&minTrustLevel=2&limit=50');
      expect(r.body.data.length).toBeGreaterThan(0);
      for (const item of r.body.data) {
        expect(item.city).toBe('Jakarta Selatan');
        expect(item.trustLevel).toBeGreaterThanOrEqual(2);
      }
      const none = await get('/api/v1/search?q=website&categorySlug=no-such-category');
      expect(none.body).toMatchObject({ data: [], meta: { total: 0 } });
      void ctx;
    });
  });
}
