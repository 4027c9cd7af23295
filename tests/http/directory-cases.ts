/** Categories, the provider list (defaults, caps, normalization, filters) and the detail. */
import { describe, expect, it } from 'vitest';
import type { ProviderRecord } from '../../src/schemas/dataset.ts';
import { ctx, expectError, get } from './api-context.ts';
import { isPublished } from './fixture.ts';

const published = () => ctx.fixture.providers.filter(isPublished);

/** Every item of a filtered list, walking the pages. */
async function allSlugs(query: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let page = 1; ; page++) {
    const r = await get(`/api/v1/providers?limit=50&page=${page}&${query}`);
    expect(r.status).toBe(200);
    slugs.push(...r.body.data.map((p: { slug: string }) => p.slug));
    if (page >= r.body.meta.totalPages) return slugs;
  }
}

const sizeOf = (p: ProviderRecord) => {
  const min = p.employeeCount ? Number(/^\d+/.exec(p.employeeCount.value)![0]) : null;
  return min === null ? null : min <= 10 ? 'micro' : min <= 50 ? 'small' : min <= 200 ? 'medium' : 'large';
};
const idr = (m: ProviderRecord['hourlyRate']) => (m && m.currency === 'IDR' ? m.amount : null);

export function directoryCases(): void {
  describe('GET /api/v1/categories', () => {
    it('lists active parents with their active children only', async () => {
      const r = await get('/api/v1/categories');
      expect(r.status).toBe(200);
      const slugs = r.body.data.map((c: { slug: string }) => c.slug);
      expect(slugs).toContain('web-development');
      expect(slugs).not.toContain('blockchain-web3');
      const marketing = r.body.data.find((c: { slug: string }) => c.slug === 'digital-marketing');
      expect(marketing.children.map((c: { slug: string }) => c.slug)).toEqual(['seo', 'social-media-ads', 'content-marketing']);
      expect(r.body.meta.rootCount).toBe(r.body.data.length);
      expect(r.body.meta.total).toBe(r.body.data.reduce((n: number, c: { children: unknown[] }) => n + 1 + c.children.length, 0));
    });
  });

  describe('GET /api/v1/providers', () => {
    it('defaults: page 1, limit 20, sort rating, then slug', async () => {
      const r = await get('/api/v1/providers');
      expect(r.body.meta).toMatchObject({ page: 1, limit: 20, sort: 'rating', total: published().length });
      expect(r.body.meta.totalPages).toBe(Math.ceil(published().length / 20));
      expect(r.body.data).toHaveLength(20);
      const keys = r.body.data.map((p: { overallRating: string; slug: string }) => [Number(p.overallRating), p.slug]);
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
      expect(keys).toEqual(sorted);
      expect(r.headers.get('link')).toContain('rel="next"');
    });

    it('normalizes bad values instead of failing', async () => {
      expect((await get('/api/v1/providers?limit=500')).body.meta.limit).toBe(50);
      expect((await get('/api/v1/providers?limit=abc&page=xyz')).body.meta).toMatchObject({ limit: 20, page: 1 });
      expect((await get('/api/v1/providers?limit=0&page=-3')).body.meta).toMatchObject({ limit: 20, page: 1 });
      expect((await get('/api/v1/providers?sort=DROP')).body.meta.sort).toBe('rating');
      expect((await get('/api/v1/providers?sort=TRUST')).body.meta.sort).toBe('trust');
      expect((await get('/api/v1/providers?minTrustLevel=abc&minRating=x&hourlyRateMin=-5')).body.meta.total).toBe(published().length);
      const past = await get('/api/v1/providers?page=999');
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ page: 999, total: published().length });
      expect(past.headers.get('link')).toContain('rel="prev"');
    });

    it('sorts by trust and reviews with slug as the tie-break', async () => {
      for (const [sort, field] of [['trust', 'trustLevel'], ['reviews', 'totalReviews']] as const) {
        const r = await get(`/api/v1/providers?sort=${sort}&limit=50`);
        const keys = r.body.data.map((p: Record<string, number | string>) => [p[field], p.slug]);
        expect(keys).toEqual([...keys].sort((a, b) => (b[0] as number) - (a[0] as number) || (a[1] < b[1] ? -1 : 1)));
      }
    });

    it('lists every published provider and nothing else across pages', async () => {
      const slugs = await allSlugs('sort=reviews');
      expect(new Set(slugs)).toEqual(ctx.publishedSlugs);
      expect(slugs).toHaveLength(ctx.publishedSlugs.size);
    });

    const oracle: [string, (p: ProviderRecord) => boolean][] = [
      ['city=jakarta%20SELATAN', (p) => p.city?.toLowerCase() === 'jakarta selatan'],
      ['location=DKI%20Jakarta', (p) => [p.city, p.province, p.country].some((v) => v?.toLowerCase() === 'dki jakarta')],
      ['location=id', (p) => p.country === 'ID'],
      ['country=id', (p) => p.country === 'ID'],
      ['minTrustLevel=3', (p) => p.trustLevel >= 3],
      ['minRating=4.2', (p) => p.overallRating >= 4.2],
      ['categorySlug=web-development', (p) => p.categoryIds.some((c) => ['cat-web-development', 'cat-e-commerce', 'cat-wordpress', 'cat-custom-web-apps', 'cat-company-profile-websites'].includes(c))],
      ['categorySlug=wordpress', (p) => p.categoryIds.includes('cat-wordpress')],
      ['categorySlug=blockchain-web3', () => false],
      ['industry=kuliner%20langka', (p) => p.industryFocus.some((i) => i.toLowerCase() === 'kuliner langka')],
      ['capabilityTag=shopify', (p) => p.capabilityTags.some((t) => t.toLowerCase() === 'shopify')],
      ['businessSize=small', (p) => sizeOf(p) === 'small'],
      ['businessSize=LARGE', (p) => sizeOf(p) === 'large'],
      ['hourlyRateMin=200000', (p) => (idr(p.hourlyRate) ?? -1) >= 200000],
      ['hourlyRateMax=50', (p) => idr(p.hourlyRate) !== null && idr(p.hourlyRate)! <= 50],
      ['projectBudget=30000000', (p) => idr(p.minProjectBudget) !== null && idr(p.minProjectBudget)! <= 30_000_000],
      ['city=Jakarta%20Selatan&minTrustLevel=2&categorySlug=web-development', (p) => p.city === 'Jakarta Selatan' && p.trustLevel >= 2 && p.categoryIds.some((c) => c.startsWith('cat-') && ['cat-web-development', 'cat-e-commerce', 'cat-wordpress', 'cat-custom-web-apps', 'cat-company-profile-websites'].includes(c))],
    ];
    for (const [query, keep] of oracle) {
      it(`filter ${decodeURIComponent(query)} matches the dataset`, async () => {
        const expected = published().filter(keep).map((p) => p.slug).sort();
        expect((await allSlugs(query)).sort()).toEqual(expected);
      });
    }

    it('never matches a non-IDR rate with a rate filter', async () => {
      expect(await allSlugs('hourlyRateMax=1000')).not.toContain('dollar-rate-studio');
      expect(await allSlugs('projectBudget=10000')).not.toContain('dollar-rate-studio');
    });

    it('q switches the list to hybrid ranking', async () => {
      const r = await get('/api/v1/providers?q=toko%20online&limit=5');
      expect(r.body.meta).toMatchObject({ sort: 'relevance', q: 'toko online', source: 'hybrid' });
      expect(r.body.data[0].search.source).toBe('hybrid');
      const plain = await get('/api/v1/providers?q=%20x%20');
      expect(plain.body.meta.sort).toBe('rating');
    });
  });

  describe('GET /api/v1/providers/{slug}', () => {
    it('returns the detail through the one projection', async () => {
      const r = await get('/api/v1/providers/dollar-rate-studio');
      expect(r.status).toBe(200);
      const d = r.body.data;
      expect(d).toMatchObject({ slug: 'dollar-rate-studio', tagline: 'Website WordPress', avgHourlyRate: null, trustLevel: 3 });
      expect(d.confidenceScore).toBe('0.500');
      expect(d.overallRating).toBe('4.00');
      expect(d.capabilityTags).toEqual(['Shopify']);
      expect(d.industryFocus).toEqual(['Retail']);
      expect(d.languagesSupported).toEqual(['Indonesian']);
      expect(d.publicDataMeta.commercialSignals.hourlyRate).toMatchObject({ available: true, currency: 'NON_IDR', displayable: false });
      expect(d.publicDataMeta.commercialSignals.minProjectBudget).toMatchObject({ currency: 'UNKNOWN', displayable: false });
      expect(d.publicDataMeta).toHaveProperty('sourceType');
      expect(d.publicDataMeta).toHaveProperty('sourcePrimaryUrl');
      expect(d.publicDataMeta).toHaveProperty('sourceAccessedAt');
      const idrProvider = await get('/api/v1/providers/hostile-name-co');
      expect(idrProvider.body.data.avgHourlyRate).toBe(300000);
      expect(idrProvider.body.data.companyName).toBe(ctx.fixture.providers.find((p) => p.slug === 'hostile-name-co')!.companyName);
    });

    it('404 BUSINESS_NOT_FOUND for unknown and unpublished slugs', async () => {
      expectError(await get('/api/v1/providers/approved-not-published'), 404, 'BUSINESS_NOT_FOUND');
      expectError(await get('/api/v1/providers/no-such-provider'), 404, 'BUSINESS_NOT_FOUND');
      expectError(await get('/api/v1/providers/%E0%A4%A'), 404, 'BUSINESS_NOT_FOUND');
      for (const slug of ctx.unpublishedSlugs) expectError(await get(`/api/v1/providers/${slug}`), 404, 'BUSINESS_NOT_FOUND');
    });
  });
}
