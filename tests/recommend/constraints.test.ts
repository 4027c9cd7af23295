/**
 * A judged list of natural-language requests (Indonesian and English) to
 * /api/ai/recommend's function, over a real snapshot built by the real builder:
 * every constraint a request states (place, region, trust, verified, rating,
 * budget, service) must hold for every provider in the answer, and
 * meta.understood must say what was read. The answers are checked against the
 * snapshot's own rows, not against the parser.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/query/snapshot.ts';
import { recommend, type RecommendResponse } from '../../src/server/recommend.ts';
import { buildTestSnapshot } from '../keys/fixture.ts';

const JT = 1_000_000;
const JABODETABEK = ['Jakarta Selatan', 'Jakarta Barat', 'Jakarta Pusat', 'Jakarta Utara', 'Jakarta Timur', 'Bogor', 'Depok', 'Tangerang', 'Tangerang Selatan', 'Bekasi'];

interface Case {
  q: string;
  /** every answer's city is one of these (case-insensitive) */
  cities?: string[];
  /** every answer is in this province */
  province?: string;
  trust?: number;
  rating?: number;
  /** ceiling in IDR: every answer's displayable minimum project budget is at most this */
  budget?: number;
  /** the category filter read (the first answers are in it) */
  category?: string;
}

const CASES: Case[] = [
  // Indonesian
  { q: 'jasa SEO di Jabodetabek trust level 4+', cities: JABODETABEK, trust: 4, category: 'seo' },
  { q: 'aplikasi android minimal level 3 di bawah 20 juta', trust: 3, budget: 20 * JT, category: 'android' },
  { q: 'konsultan IT terverifikasi maks Rp 30jt di Jaksel', cities: ['Jakarta Selatan'], trust: 3, budget: 30 * JT, category: 'it-consulting' },
  { q: 'toko online di Jogja rating minimal 4', province: 'DI Yogyakarta', rating: 4, category: 'e-commerce' },
  { q: 'bikin website company profile di Tangsel', cities: ['Tangerang Selatan'], category: 'company-profile-websites' },
  { q: 'pembuatan aplikasi mobile di Solo', cities: ['Surakarta'], category: 'mobile-app-development' },
  { q: 'desain UI/UX di Bali anggaran 50 juta', province: 'Bali', budget: 50 * JT, category: 'ui-ux-design' },
  { q: 'vendor cloud migration Jabodetabek yang terverifikasi', cities: JABODETABEK, trust: 3, category: 'cloud-migration' },
  { q: 'jasa iklan facebook rating 4.5 ke atas', rating: 4.5, category: 'social-media-ads' },
  { q: 'pentest aplikasi bank di Jakarta trust minimal 4', province: 'DKI Jakarta', trust: 4, category: 'penetration-testing' },
  { q: 'produksi video company profile di Jabodetabek budget Rp 15jt', cities: JABODETABEK, budget: 15 * JT, category: 'video-production' },
  { q: 'implementasi ERP odoo tingkat kepercayaan minimal 3', trust: 3, category: 'erp-implementation' },
  { q: 'desainer grafis untuk konten instagram', category: 'branding-creative' },
  { q: 'desain logo di Jogja maksimal 10 juta', province: 'DI Yogyakarta', budget: 10 * JT, category: 'brand-identity' },
  { q: 'software house di Bandung bintang 4 ke atas', cities: ['Bandung'], rating: 4, category: 'software-development' },
  { q: 'jasa pembuatan website wordpress di Jaksel di bawah 25 juta', cities: ['Jakarta Selatan'], budget: 25 * JT, category: 'wordpress' },
  { q: 'dashboard business intelligence sudah terverifikasi di Surabaya', cities: ['Surabaya'], trust: 3, category: 'business-intelligence' },
  { q: 'chatbot AI untuk layanan pelanggan rating minimal 4 level 3 ke atas', rating: 4, trust: 3, category: 'machine-learning' },
  { q: 'cari agensi digital marketing di Tangsel maks 40jt', cities: ['Tangerang Selatan'], budget: 40 * JT, category: 'digital-marketing' },
  { q: 'integrasi payment gateway di Jabodetabek minimal trust level 2', cities: JABODETABEK, trust: 2, category: 'api-integration' },
  { q: 'aplikasi flutter di Jogja sangat terpercaya', province: 'DI Yogyakarta', trust: 4, category: 'flutter-cross-platform' },
  { q: 'audit keamanan ISO 27001 di Jakarta', province: 'DKI Jakarta', category: 'security-compliance' },
  { q: 'transformasi digital untuk pabrik rating di atas 4', rating: 4, category: 'digital-transformation' },
  // English
  { q: 'SEO agency in Jabodetabek with trust level 4+', cities: JABODETABEK, trust: 4, category: 'seo' },
  { q: 'mobile app developer, at least trust level 3, under 150 million rupiah', trust: 3, budget: 150 * JT, category: 'mobile-app-development' },
  { q: 'graphic designer for social media posts', category: 'branding-creative' },
  { q: 'ecommerce website in Jogja rated at least 4', province: 'DI Yogyakarta', rating: 4, category: 'e-commerce' },
  { q: 'verified cloud consultants in South Jakarta', cities: ['Jakarta Selatan'], trust: 3, category: 'cloud-devops' },
  { q: 'web developer in Bali with rating 4+', province: 'Bali', rating: 4, category: 'web-development' },
  { q: 'UI/UX designer in Tangsel under $3k', cities: ['Tangerang Selatan'], budget: 3000 * 16_000, category: 'ui-ux-design' },
  { q: 'penetration testing company in Greater Jakarta, minimum trust level 3', cities: JABODETABEK, trust: 3, category: 'penetration-testing' },
  { q: 'video production in Solo, 4 stars and up', cities: ['Surakarta'], rating: 4, category: 'video-production' },
  { q: 'android app agency with at least level 2 trust budget 30 million', trust: 2, budget: 30 * JT, category: 'android' },
  { q: 'highly trusted data analytics partner in Jakarta', province: 'DKI Jakarta', trust: 4, category: 'business-intelligence' },
  { q: 'logo designer for a coffee shop in Bali', province: 'Bali', category: 'brand-identity' },
  { q: 'custom software for logistics in Jabodetabek, max IDR 200,000,000', cities: JABODETABEK, budget: 200 * JT, category: 'custom-software' },
  { q: 'content marketing agency rated 4.5 or higher', rating: 4.5, category: 'content-marketing' },
  { q: 'DevOps and Kubernetes consultants in Surabaya with trust level at least 3', cities: ['Surabaya'], trust: 3, category: 'devops' },
  { q: 'machine learning for demand forecasting in Jogja under 100 million rupiah', province: 'DI Yogyakarta', budget: 100 * JT, category: 'machine-learning' },
  { q: 'WordPress developer for a restaurant website, verified, in Bandung', cities: ['Bandung'], trust: 3, category: 'wordpress' },
  { q: 'ERP implementation for a factory in Tangsel with rating at least 4', cities: ['Tangerang Selatan'], rating: 4, category: 'erp-implementation' },
  { q: 'social media ads in South Jakarta, trust level 3 or higher, max Rp 20jt', cities: ['Jakarta Selatan'], trust: 3, budget: 20 * JT, category: 'social-media-ads' },
  { q: 'iOS app developers in Greater Jakarta minimum rating 4.2', cities: JABODETABEK, rating: 4.2, category: 'ios' },
];

let dir: string;
let snapshot: Snapshot;
let db: Database.Database;
const answers = new Map<string, RecommendResponse>();

beforeAll(async () => {
  const built = await buildTestSnapshot(600, 4);
  dir = built.dir;
  snapshot = new Snapshot(built.dbFile);
  db = new Database(built.dbFile, { readonly: true });
  for (const c of CASES) answers.set(c.q, await recommend(snapshot, { q: c.q, city: null, limit: 10 }));
}, 120_000);

afterAll(() => {
  snapshot?.close();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Row {
  city: string | null;
  province: string | null;
  trust_level: number;
  overall_rating: number;
  min_project_budget_idr: number | null;
  budget_currency_class: string | null;
}
const rowOf = (slug: string) =>
  db.prepare('SELECT city, province, trust_level, overall_rating, min_project_budget_idr, budget_currency_class FROM published_providers WHERE slug = ?').get(slug) as Row;
const categoriesOf = (slug: string): string[] =>
  db
    .prepare(
      `SELECT c.slug AS own, p.slug AS parent FROM provider_categories pc JOIN providers x ON x.rowid = pc.provider_rowid
       JOIN categories c ON c.id = pc.category_id LEFT JOIN categories p ON p.id = c.parent_id WHERE x.slug = ?`,
    )
    .all(slug)
    .flatMap((r: any) => [r.own, r.parent].filter(Boolean));

const snapshotParent = (slug: string): string | null =>
  (db.prepare('SELECT p.slug FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.slug = ?').pluck().get(slug) as string | null) ?? null;

describe('recommend honours every constraint stated in the request', () => {
  it('judges at least 40 requests, at least 20 in each language', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    const english = [...answers.values()].filter((a) => a.meta.understood.language === 'en').length;
    expect(english).toBeGreaterThanOrEqual(18);
    expect(CASES.length - english).toBeGreaterThanOrEqual(20);
  });

  it('answers most requests (the constraints are checked on real answers, not on empty lists)', () => {
    const answered = CASES.filter((c) => answers.get(c.q)!.data.length > 0).length;
    expect(answered).toBeGreaterThanOrEqual(30);
  });

  for (const c of CASES) {
    it(c.q, () => {
      const { data, meta } = answers.get(c.q)!;
      const u = meta.understood;
      expect(u.minTrustLevel).toBe(c.trust ?? null);
      expect(u.minRating).toBe(c.rating ?? null);
      expect(u.maxBudgetIdr).toBe(c.budget ?? null);
      expect(u.categorySlug).toBe(c.category ?? null);
      if (c.cities || c.province) expect(u.place).not.toBeNull();
      else expect(u.place).toBeNull();
      for (const item of data) {
        const row = rowOf(item.slug);
        if (c.cities) expect(c.cities.map((x) => x.toLowerCase()), item.slug).toContain(row.city?.toLowerCase());
        if (c.province) expect(row.province, item.slug).toBe(c.province);
        if (c.trust !== undefined) expect(row.trust_level, item.slug).toBeGreaterThanOrEqual(c.trust);
        if (c.rating !== undefined) expect(row.overall_rating, item.slug).toBeGreaterThanOrEqual(c.rating);
        if (c.budget !== undefined) {
          expect(row.budget_currency_class, item.slug).toBe('IDR');
          expect(row.min_project_budget_idr!, item.slug).toBeLessThanOrEqual(c.budget);
        }
      }
      // The service named comes first: in-category providers lead, then its family, then others fill a short list.
      if (c.category && data.length > 0) {
        const family = snapshotParent(c.category) ?? c.category;
        const rank = data.map((item) => {
          const categories = categoriesOf(item.slug);
          return categories.includes(c.category!) ? 0 : categories.includes(family) ? 1 : 2;
        });
        expect(rank, 'category, then family, then others').toEqual([...rank].sort((a, b) => a - b));
      }
    });
  }

  it('a region is read as its cities and a nickname as its place', () => {
    const region = answers.get('jasa SEO di Jabodetabek trust level 4+')!.meta.understood;
    expect(region.place).toMatchObject({ kind: 'region', matched: 'jabodetabek' });
    expect(region.place!.cities).toEqual(expect.arrayContaining(['Bekasi', 'Depok', 'Jakarta Selatan']));
    expect(region.read).toEqual(['trust level 4+']);
    expect(answers.get('pembuatan aplikasi mobile di Solo')!.meta.understood.place).toMatchObject({ kind: 'city', name: 'Surakarta' });
    expect(answers.get('toko online di Jogja rating minimal 4')!.meta.understood.place).toMatchObject({ kind: 'province', name: 'DI Yogyakarta' });
  });

  it('the service noun wins over a qualifier', () => {
    const u = answers.get('graphic designer for social media posts')!.meta.understood;
    expect(u.services.map((s) => s.slug)).toEqual(['branding-creative']);
    expect(u.qualifiers.map((s) => s.slug)).toEqual(['social-media-ads']);
  });
});
