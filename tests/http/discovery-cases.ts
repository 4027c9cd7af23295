/** Programmatic discovery, compare and the report over HTTP. */
import { describe, expect, it } from 'vitest';
import { citySlug } from '../../src/text/city-slug.ts';
import { ctx, expectError, get } from './api-context.ts';
import { isPublished } from './fixture.ts';

const PARENT: Record<string, string> = {
  'cat-e-commerce': 'web-development', 'cat-wordpress': 'web-development', 'cat-custom-web-apps': 'web-development',
  'cat-company-profile-websites': 'web-development', 'cat-web-development': 'web-development',
};

export function discoveryCases(): void {
  describe('GET /api/v1/discovery/programmatic-params', () => {
    it('limit defaults to 500, caps at 1000, order is count desc then path', async () => {
      const r = await get('/api/v1/discovery/programmatic-params');
      expect(r.body.meta).toMatchObject({ limit: 500, trustThreshold: 1 });
      expect((await get('/api/v1/discovery/programmatic-params?limit=5000')).body.meta.limit).toBe(1000);
      const two = await get('/api/v1/discovery/programmatic-params?limit=2');
      expect(two.body.data).toHaveLength(2);
      expect(two.body.meta.total).toBe(r.body.meta.total);
      const items = r.body.data as { providerCount: number; path: string; categorySlug: string; citySlug: string }[];
      for (let i = 1; i < items.length; i++) {
        const [a, b] = [items[i - 1]!, items[i]!];
        expect(a.providerCount > b.providerCount || (a.providerCount === b.providerCount && a.path < b.path)).toBe(true);
      }
      for (const it of items) expect(it.path).toBe(`/${it.categorySlug}-terbaik-${it.citySlug}`);
      expect(items.map((i) => i.categorySlug)).not.toContain('e-commerce'); // children promoted
      expect(items.map((i) => i.categorySlug)).not.toContain('blockchain-web3');
    });

    it('counts published providers with trustLevel >= 1 and a city, children under their parent', async () => {
      const r = await get('/api/v1/discovery/programmatic-params?limit=1000');
      const web = r.body.data.find((p: { path: string }) => p.path === '/web-development-terbaik-jakarta-selatan');
      const expected = ctx.fixture.providers.filter(
        (p) => isPublished(p) && p.trustLevel >= 1 && p.city && citySlug(p.city) === 'jakarta-selatan' && p.categoryIds.some((c) => PARENT[c]),
      ).length;
      expect(web.providerCount).toBe(expected);
    });
  });

  describe('GET /api/v1/discovery/programmatic', () => {
    it('400 PARAM_REQUIRED and 404 CATEGORY_NOT_FOUND', async () => {
      expectError(await get('/api/v1/discovery/programmatic'), 400, 'PARAM_REQUIRED');
      expectError(await get('/api/v1/discovery/programmatic?categorySlug=seo'), 400, 'PARAM_REQUIRED');
      expectError(await get('/api/v1/discovery/programmatic?citySlug=bandung&categorySlug=%20'), 400, 'PARAM_REQUIRED');
      expectError(await get('/api/v1/discovery/programmatic?categorySlug=nope&citySlug=bandung'), 404, 'CATEGORY_NOT_FOUND');
      expectError(await get('/api/v1/discovery/programmatic?categorySlug=blockchain-web3&citySlug=bandung'), 404, 'CATEGORY_NOT_FOUND');
      expectError(await get('/api/v1/discovery/programmatic?categorySlug=sms-blast&citySlug=bandung'), 404, 'CATEGORY_NOT_FOUND');
      expectError(await get('/api/v1/discovery/programmatic?categorySlug=nft-development&citySlug=bandung'), 404, 'CATEGORY_NOT_FOUND');
    });

    it('answers by citySlug, or by city directly when sent', async () => {
      const r = await get('/api/v1/discovery/programmatic?categorySlug=web-development&citySlug=jakarta-selatan&limit=50');
      const expected = ctx.fixture.providers
        .filter((p) => isPublished(p) && p.trustLevel >= 1 && p.city && citySlug(p.city) === 'jakarta-selatan' && p.categoryIds.some((c) => PARENT[c]))
        .map((p) => p.slug)
        .sort();
      expect(expected.length).toBeLessThanOrEqual(50);
      expect(r.body.data.map((p: { slug: string }) => p.slug).sort()).toEqual(expected);
      expect(r.body.meta).toMatchObject({ category: { slug: 'web-development', name: 'Web Development' }, citySlug: 'jakarta-selatan', trustThreshold: 1, total: expected.length, page: 1, limit: 50 });
      const direct = await get('/api/v1/discovery/programmatic?categorySlug=video-production&citySlug=ignored&city=KOTA%20TERPENCIL');
      expect(direct.body.data.map((p: { slug: string }) => p.slug)).toEqual(['kedai-kopi-terpencil']);
      const child = await get('/api/v1/discovery/programmatic?categorySlug=e-commerce&citySlug=Jakarta%20Selatan');
      for (const p of child.body.data) expect(ctx.fixture.providers.find((x) => x.slug === p.slug)!.categoryIds).toContain('cat-e-commerce');
      const empty = await get('/api/v1/discovery/programmatic?categorySlug=seo&citySlug=nowhere-city');
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
    });
  });

  describe('GET /api/v1/discovery/compare', () => {
    it('errors: PARAM_REQUIRED, SLUG_DUPLICATE, PROVIDER_NOT_FOUND', async () => {
      expectError(await get('/api/v1/discovery/compare'), 400, 'PARAM_REQUIRED');
      expectError(await get('/api/v1/discovery/compare?slugA=hostile-name-co'), 400, 'PARAM_REQUIRED');
      expectError(await get('/api/v1/discovery/compare?slugA=hostile-name-co&slugB=hostile-name-co'), 400, 'SLUG_DUPLICATE');
      expectError(await get('/api/v1/discovery/compare?slugA=hostile-name-co&slugB=approved-not-published'), 404, 'PROVIDER_NOT_FOUND');
      expectError(await get('/api/v1/discovery/compare?slugA=nope&slugB=hostile-name-co'), 404, 'PROVIDER_NOT_FOUND');
    });

    it('answers in the order slugA, slugB with public proof counts and the context', async () => {
      const r = await get('/api/v1/discovery/compare?slugA=dollar-rate-studio&slugB=hostile-name-co');
      expect(r.status).toBe(200);
      expect(r.body.data.map((p: { slug: string }) => p.slug)).toEqual(['dollar-rate-studio', 'hostile-name-co']);
      expect(r.body.data[0].proofSummary.totalPublicProofs).toBe(1);
      expect(r.body.meta.slugs).toEqual(['dollar-rate-studio', 'hostile-name-co']);
      expect(Math.abs(Date.parse(r.body.meta.comparedAt) - Date.now())).toBeLessThan(600_000);
      expect(r.body.meta.comparisonContext).toEqual({
        comparable: true,
        rule: 'same_service_industry',
        sharedCategories: [{ id: 'cat-web-development', slug: 'web-development', name: 'Web Development' }],
        sharedIndustries: ['Retail'],
      });
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('etag')).toBeNull();
      const other = await get('/api/v1/discovery/compare?slugA=kedai-kopi-terpencil&slugB=hostile-name-co');
      expect(other.body.meta.comparisonContext).toMatchObject({ comparable: false, sharedCategories: [], sharedIndustries: [] });
    });
  });

  describe('GET /api/v1/reports/{report_slug}', () => {
    it('serves the web development report from published providers in ID', async () => {
      const r = await get('/api/v1/reports/web-development-indonesia-2026');
      expect(r.status).toBe(200);
      const expected = ctx.fixture.providers.filter((p) => isPublished(p) && p.country === 'ID' && p.categoryIds.some((c) => PARENT[c]));
      expect(r.body.data.totalProviders).toBe(expected.length);
      expect(r.body.data.byCity.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(expected.filter((p) => p.city).length);
      const rates = expected.filter((p) => p.hourlyRate?.currency === 'IDR').map((p) => p.hourlyRate!.amount);
      expect(r.body.data.commercial.hourlyRate.providersWithDisplayableValue).toBe(rates.length);
      expect(r.body.data.commercial.hourlyRate.maxIdr).toBe(rates.length ? Math.max(...rates) : null);
      expectError(await get('/api/v1/reports/no-such-report'), 404, 'REPORT_NOT_FOUND');
    });
  });
}
