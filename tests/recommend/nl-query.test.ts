/**
 * The natural-language parser on 48 requests (half Indonesian): the city (or
 * province), the category and the budget it must find. The vocabulary is the one
 * the generated datasets use (src/generate), as the snapshot would report it.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES, PLACES } from '../../src/generate/index.ts';
import { parseRequest, queryParser, type Vocabulary } from '../../src/query/nl-query.ts';
import { USD_TO_IDR } from '../../src/query/nl-query-budget.ts';

const byId = new Map(CATEGORIES.map((c) => [c.id, c]));
const vocab: Vocabulary = {
  cities: PLACES.map((p) => p.city),
  provinces: [...new Set(PLACES.flatMap((p) => (p.province ? [p.province] : [])))],
  categories: CATEGORIES.filter((c) => c.active && (c.parentId === null || byId.get(c.parentId)!.active)).map((c) => ({
    slug: c.slug,
    name: c.name,
    parentSlug: c.parentId ? byId.get(c.parentId)!.slug : null,
  })),
};
const parser = queryParser(vocab);

const JT = 1_000_000;
interface Case {
  q: string;
  city?: string | null;
  province?: string;
  category?: string | null;
  budget?: number | null;
  lang?: 'id' | 'en';
}

const INDONESIAN: Case[] = [
  { q: 'bikin website toko online di Bandung budget 50 juta', city: 'Bandung', category: 'e-commerce', budget: 50 * JT, lang: 'id' },
  { q: 'jasa SEO di Jaksel', city: 'Jakarta Selatan', category: 'seo', budget: null, lang: 'id' },
  { q: 'aplikasi android murah di jogja', province: 'DI Yogyakarta', category: 'android', lang: 'id' },
  { q: 'cari vendor aplikasi android di bawah 30jt', city: null, category: 'android', budget: 30 * JT },
  { q: 'butuh jasa pembuatan website company profile di Surabaya maksimal Rp 100.000.000', city: 'Surabaya', category: 'company-profile-websites', budget: 100 * JT },
  { q: 'toko online shopify di Jakarta Barat', city: 'Jakarta Barat', category: 'e-commerce' },
  { q: 'konsultan IT di Medan', city: 'Medan', category: 'it-consulting' },
  { q: 'pentest aplikasi bank di Jakarta', province: 'DKI Jakarta', category: 'penetration-testing' },
  { q: 'desain UI/UX aplikasi di Tangsel anggaran 25 juta', city: 'Tangerang Selatan', category: 'ui-ux-design', budget: 25 * JT },
  { q: 'jasa iklan facebook ads untuk UMKM di Semarang', city: 'Semarang', category: 'social-media-ads' },
  { q: 'migrasi cloud ke AWS di Surabaya', city: 'Surabaya', category: 'cloud-migration' },
  { q: 'pembuatan aplikasi iOS dan android di Solo', city: 'Surakarta', category: 'mobile-app-development' },
  { q: 'bikin logo dan brand identity kafe di Denpasar', city: 'Denpasar', category: 'brand-identity' },
  { q: 'produksi video company profile di Makassar budget Rp 15jt', city: 'Makassar', category: 'video-production', budget: 15 * JT },
  { q: 'implementasi ERP odoo untuk pabrik di Bekasi', city: 'Bekasi', category: 'erp-implementation' },
  { q: 'jasa pembuatan website wordpress murah 5 juta', city: null, category: 'wordpress', budget: 5 * JT },
  { q: 'software house di Malang untuk sistem informasi sekolah', city: 'Malang', category: 'custom-software' },
  { q: 'chatbot AI untuk layanan pelanggan di Depok', city: 'Depok', category: 'machine-learning' },
  { q: 'dashboard business intelligence di Bogor hingga Rp1,5 M', city: 'Bogor', category: 'business-intelligence', budget: 1_500 * JT },
  { q: 'aplikasi flutter untuk startup di Sleman', city: 'Sleman', category: 'flutter-cross-platform' },
  { q: 'audit keamanan ISO 27001 di Jakpus', city: 'Jakarta Pusat', category: 'security-compliance' },
  { q: 'kelola sosmed dan konten instagram di Balikpapan 10jt', city: 'Balikpapan', category: 'digital-marketing', budget: 10 * JT },
  { q: 'integrasi payment gateway di Batam', city: 'Batam', category: 'api-integration' },
  { q: 'transformasi digital perusahaan di Palembang', city: 'Palembang', category: 'digital-transformation' },
  { q: 'nasi padang butuh website menu', city: null, category: 'web-development', budget: null },
];

const ENGLISH: Case[] = [
  { q: 'need a mobile app developer in Surabaya under $5k', city: 'Surabaya', category: 'mobile-app-development', budget: 5000 * USD_TO_IDR, lang: 'en' },
  { q: 'ecommerce website in Bandung', city: 'Bandung', category: 'e-commerce', lang: 'en' },
  { q: 'SEO agency in South Jakarta', city: 'Jakarta Selatan', category: 'seo', lang: 'en' },
  { q: 'looking for a WordPress developer in Bali with budget 20 million rupiah', province: 'Bali', category: 'wordpress', budget: 20 * JT, lang: 'en' },
  { q: 'penetration testing company in Jakarta', province: 'DKI Jakarta', category: 'penetration-testing', lang: 'en' },
  { q: 'UI/UX design for a fintech app in Yogyakarta', city: 'Yogyakarta', category: 'ui-ux-design' },
  { q: 'Kubernetes and CI/CD consultants in Singapore', city: 'Singapore', category: 'devops' },
  { q: 'best android app developers in Medan below USD 3,000', city: 'Medan', category: 'android', budget: 3000 * USD_TO_IDR },
  { q: 'build an online store with Shopify', city: null, category: 'e-commerce', budget: null },
  { q: 'solo developer for a wordpress blog', city: null, category: null, budget: null },
  { q: 'machine learning model for demand forecasting in Kuala Lumpur', city: 'Kuala Lumpur', category: 'machine-learning' },
  { q: 'cloud migration to AWS for a hospital in Semarang up to $20k', city: 'Semarang', category: 'cloud-migration', budget: 20_000 * USD_TO_IDR },
  { q: 'logo design and brand identity in Denpasar', city: 'Denpasar', category: 'brand-identity' },
  { q: 'custom software for logistics in Tangerang', city: 'Tangerang', category: 'custom-software' },
  { q: 'social media ads agency in Malang under IDR 10,000,000', city: 'Malang', category: 'social-media-ads', budget: 10 * JT },
  { q: 'iOS app for a clinic in Makassar', city: 'Makassar', category: 'ios' },
  { q: 'company profile website for a law firm in Jakarta Utara', city: 'Jakarta Utara', category: 'company-profile-websites' },
  { q: 'data analytics dashboard with Power BI in Surakarta', city: 'Surakarta', category: 'business-intelligence' },
  { q: 'video production for a product launch in Bekasi, budget 2.5 million', city: 'Bekasi', category: 'video-production', budget: 2.5 * JT },
  { q: 'ERP implementation for a factory in East Java', province: 'Jawa Timur', category: 'erp-implementation' },
  { q: 'ISO 27001 security audit for top 10 bank', city: null, category: 'security-compliance', budget: null },
  { q: 'react native app in Jogja under $1.5k', province: 'DI Yogyakarta', category: 'flutter-cross-platform', budget: 1500 * USD_TO_IDR },
  { q: 'digital marketing agency in Pekanbaru', city: 'Pekanbaru', category: 'digital-marketing' },
];

/** The category the endpoint would filter by: the most specific service named, when exactly one family is named. */
function mainCategory(q: string): string | null {
  const { services } = parseRequest(q, parser);
  if (services.length === 0) return null;
  const top = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? slug;
  if (new Set(services.map((s) => top(s.slug))).size > 1) return null;
  return services.length === 1 ? services[0]!.slug : top(services[0]!.slug);
}

describe('parseRequest', () => {
  it('has at least 40 cases, half of them Indonesian', () => {
    expect(INDONESIAN.length + ENGLISH.length).toBeGreaterThanOrEqual(40);
    expect(INDONESIAN.length).toBeGreaterThanOrEqual(ENGLISH.length);
  });

  for (const c of [...INDONESIAN, ...ENGLISH]) {
    it(c.q, () => {
      const parsed = parseRequest(c.q, parser);
      if (c.province !== undefined) expect(parsed.place).toMatchObject({ kind: 'province', province: c.province });
      else if (c.city === null) expect(parsed.place).toBeNull();
      else if (c.city !== undefined) expect(parsed.place).toMatchObject({ kind: 'city', city: c.city });
      if (c.category !== undefined) expect(mainCategory(c.q)).toBe(c.category);
      if (c.budget === null) expect(parsed.budget).toBeNull();
      else if (c.budget !== undefined) expect(parsed.budget?.maxIdr).toBe(Math.round(c.budget));
      if (c.lang) expect(parsed.lang).toBe(c.lang);
    });
  }

  it('names services that span two families without choosing one', () => {
    const parsed = parseRequest('website dan aplikasi android', parser);
    expect(parsed.services.map((s) => s.slug).sort()).toEqual(['android', 'web-development']);
  });

  it('reads a service after "for"/"untuk" as a qualifier of what came before it', () => {
    const qualified = parseRequest('graphic designer for social media posts', parser);
    expect(qualified.services.map((s) => s.slug)).toEqual(['branding-creative']);
    const headless = parseRequest('sistem kasir untuk toko online', parser);
    expect(headless.services).toEqual([]);
    expect(headless.qualifiers.map((s) => s.slug)).toEqual(['e-commerce']);
    expect(parseRequest('buat toko online untuk UMKM', parser).services.map((s) => s.slug)).toEqual(['e-commerce']);
  });

  it('ranks the request without its place, or without its place and budget for a reader that filters on them', () => {
    const q = 'bikin website toko online di Bandung budget 50 juta';
    const words = 'bikin website toko online budget 50 juta';
    expect(parseRequest(q, parser).ranked).toEqual({ text: words, tokens: words.split(' '), endsInWord: true });
    expect(parseRequest('bikin website toko online', parser).ranked.text).toBe('bikin website toko online');
    const { ranked } = parseRequest(q, parser, { leaveOut: 'filters' });
    expect(ranked.text).not.toMatch(/bandung|juta|50/);
    expect(ranked.text).toContain('toko online');
    expect(ranked.tokens).toEqual(ranked.text.split(' '));
  });
});
