import { describe, expect, it } from 'vitest';
import { serializeJsonLd } from '../../src/site/jsonld.ts';
import { formatDate, formatRupiah, profileProvenance, safeHttpUrl } from '../../src/text/format.ts';
import { latest, parseSitemapParam, partCount, renderSitemapIndex, renderUrlset, sitemapFileName, w3cDate } from '../../src/site/sitemaps.ts';
import { loadEnv } from '../../src/env.ts';
import { renderLlmsTxt, renderRobotsTxt } from '../../src/site/llms.ts';
import { buildVicCard, VicCardSchema } from '../../src/web/vic.ts';
import type { ProviderDetail } from '../../src/schemas/provider.ts';

const money = (displayable: boolean) => ({ available: true, provenance: 'provider_submitted', currency: displayable ? ('IDR' as const) : ('NON_IDR' as const), displayable });
const detail: ProviderDetail = {
  id: 'p1', slug: 'acme', companyName: 'Acme </script>', tagline: 't', city: 'Bandung', province: 'Jawa Barat', country: 'ID',
  trustLevel: 3, confidenceScore: '0.870', overallRating: '4.60', totalReviews: 12,
  description: 'd', website: null, categories: [{ id: 'c1', slug: 'web-development', name: 'Web Development' }],
  capabilityTags: ['Astro'], industryFocus: ['Retail'], languagesSupported: ['Indonesian'], avgHourlyRate: null,
  publishedAt: '2026-01-02T03:04:05Z', updatedAt: null,
  publicDataMeta: {
    profileProvenance: 'public_source', sourceType: 'manual_public_enrichment', sourcePrimaryUrl: 'https://example.id/acme', sourceAccessedAt: '2026-03-04T20:00:00Z',
    commercialSignals: { employeeCount: { available: true, provenance: 'provider_submitted', displayable: true }, minProjectBudget: money(false), hourlyRate: money(false) },
  },
};

describe('serializeJsonLd', () => {
  it('escapes <, >, &, U+2028 and U+2029 so text cannot close the script element', () => {
    const out = serializeJsonLd({ name: '</script><script>alert("x")</script> & \u2028\u2029' });
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(out).toContain('\\u003c/script\\u003e');
    expect(out).toContain('\\u0026');
    expect(out).toContain('\\u2028');
    expect(JSON.parse(out).name).toBe('</script><script>alert("x")</script> & \u2028\u2029');
  });
});

describe('format', () => {
  it('writes Rupiah with dot thousands and dates in Asia/Jakarta', () => {
    expect(formatRupiah(350000)).toBe('Rp 350.000');
    // 20:00 UTC on 4 March is 03:00 on 5 March in Jakarta (UTC+7).
    expect(formatDate('2026-03-04T20:00:00Z')).toBe('5 Maret 2026');
  });
  it('says where a profile comes from, with the access date and only http(s) links', () => {
    expect(profileProvenance(detail.publicDataMeta)).toEqual({ text: 'Profil ini dari sumber publik, diakses pada 5 Maret 2026.', sourceUrl: 'https://example.id/acme' });
    expect(profileProvenance({ ...detail.publicDataMeta, profileProvenance: 'provider_submitted' }).text).toBe('Profil ini diajukan oleh penyedia.');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
  });
});

describe('buildVicCard', () => {
  const card = buildVicCard(detail, [{ id: 'x', title: 'Case', kind: 'case_study', url: null, createdAt: '2026-01-01T00:00:00Z' }], { webUrl: 'https://dir.example.id' });
  it('has the spec fields with the spec types', () => {
    expect(VicCardSchema.parse(card)).toEqual(card);
    expect(card['@context']).toBe('https://schema.org');
    expect(card['@id']).toBe('https://dir.example.id/provider/acme/vic.json');
    expect(card.entity).toMatchObject({ slug: 'acme', name: 'Acme </script>' });
    expect(card.trust.confidenceScore).toBe(0.87);
    expect(Number.isInteger(card.meta.vicVersion)).toBe(true);
    expect(typeof card.meta.schemaVersion).toBe('string');
  });
  it('carries no amount that is not displayable', () => {
    expect(card.commercial.hourlyRate.amountIdr).toBeNull();
    expect(JSON.stringify(card)).not.toMatch(/moderation|internal/i);
  });
});

describe('sitemaps', () => {
  it('splits at the threshold into numbered files', () => {
    expect(partCount(0, 10)).toBe(1);
    expect(partCount(21, 10)).toBe(3);
    expect(sitemapFileName('providers', 1)).toBe('sitemap-providers.xml');
    expect(sitemapFileName('providers', 3)).toBe('sitemap-providers-3.xml');
    expect(parseSitemapParam('vic-2')).toEqual({ kind: 'vic', part: 2 });
    expect(parseSitemapParam('providers-1')).toBeNull();
    expect(loadEnv({ SITEMAP_MAX_URLS: '7' }).sitemapMaxUrls).toBe(7);
    expect(loadEnv({ SITEMAP_MAX_URLS: '900000' }).sitemapMaxUrls).toBe(50000);
    expect(loadEnv({}).sitemapMaxUrls).toBe(50000);
    expect(() => loadEnv({ SITEMAP_MAX_URLS: '0' })).toThrow(/SITEMAP_MAX_URLS/);
  });
  it('escapes XML and writes lastmod without milliseconds', () => {
    const xml = renderUrlset([{ loc: 'https://x.id/?a=1&b=<2>', lastmod: '2026-01-02T03:04:05.678Z' }]);
    expect(xml).toContain('<loc>https://x.id/?a=1&amp;b=&lt;2&gt;</loc>');
    expect(xml).toContain('<lastmod>2026-01-02T03:04:05Z</lastmod>');
    expect(w3cDate('garbage')).toBeNull();
    expect(renderSitemapIndex([{ loc: 'https://x.id/sitemap-vic.xml' }])).toContain('<sitemapindex');
  });
  it('takes the latest of several dates as instants, whatever their offsets', () => {
    // 10:00+07:00 is 03:00Z: earlier than 05:00Z although it sorts later as text.
    expect(latest(['2026-01-02T10:00:00+07:00', '2026-01-02T05:00:00.250Z', null, 'garbage'])).toBe('2026-01-02T05:00:00Z');
    expect(latest([null, undefined, 'garbage'])).toBeNull();
    expect(latest([])).toBeNull();
  });
});

describe('llms.txt and robots.txt', () => {
  const text = renderLlmsTxt({
    webUrl: 'https://dir.example.id', apiUrl: 'https://api.example.id', indexNowKey: 'abcdef123456',
    sitemapFiles: ['sitemap-providers.xml', 'sitemap-vic.xml'], exampleSlug: 'acme', exampleLandingPath: '/web-terbaik-bandung', publishedProviders: 3,
    reports: [{ slug: 'web-development-indonesia-2026', title: 'Web Development di Indonesia 2026' }],
  });
  it('follows the llmstxt.org shape: H1, blockquote, H2 link lists, Optional last', () => {
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# /);
    expect(lines[2]).toMatch(/^> /);
    const h2 = lines.filter((l) => l.startsWith('## '));
    expect(h2.at(-1)).toBe('## Optional');
    for (const link of text.matchAll(/\]\(([^)]+)\)/g)) expect(link[1]).toMatch(/^https:\/\/(dir|api)\.example\.id\//);
  });
  it('names every entry point of the spec', () => {
    for (const url of ['https://dir.example.id/provider/acme/vic.json', 'https://api.example.id/api/v1/openapi.json', 'https://api.example.id/api/ai/recommend',
      'https://api.example.id/api/v1/reports/web-development-indonesia-2026', 'https://dir.example.id/laporan/web-development-indonesia-2026', 'https://api.example.id/mcp', 'https://dir.example.id/sitemap.xml',
      'https://dir.example.id/abcdef123456.txt']) expect(text).toContain(`(${url})`);
  });
  it('robots names the index and keeps /api/ai/ and /mcp out', () => {
    expect(renderRobotsTxt('https://dir.example.id')).toMatch(/Disallow: \/api\/ai\/\nDisallow: \/mcp\n[\s\S]*Sitemap: https:\/\/dir\.example\.id\/sitemap\.xml/);
  });
});
