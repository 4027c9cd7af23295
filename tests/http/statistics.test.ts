/**
 * Every number the directory shows tells the truth (docs/interface.md, "Statistics"
 * and "Place names"), as properties of the seed and of generated datasets. The
 * generated ones (the generator already writes unrated providers and
 * "denpasar"/"DENPASAR") are made harder on purpose (statistics-oracle.ts `harden`):
 * cities and provinces spelled only in capitals or only in lower case, a hyphenated
 * spelling, unrated records that claim a rating, rated ones below 1; every dataset
 * gets a report for every usable category. Asking the API in process (handleRequest,
 * what the server runs) and the page data:
 * - every report's and every category page's figures equal the same figures
 *   computed with SQL over the snapshot's published rows under the rule (ratings of
 *   rated providers only, money of displayable values only);
 * - unrated providers are never inside a rating bucket, and are counted apart;
 * - no city or province shown is all capitals or all lower case, and each is the
 *   name the oracle derives from the spellings on its own;
 * - JSON-LD has an aggregateRating only with reviews, VIC cards rate nobody
 *   without reviews, and the AI reasons say "belum ada ulasan" instead of a rating;
 * - the city and location filters accept every spelling the data uses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { handleRequest } from '../../src/server/app.ts';
import { createKeyServices, type KeyServices } from '../../src/server/auth/services.ts';
import type { AppContext } from '../../src/server/context.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { categoryPage } from '../../src/site/category-page.ts';
import { providerPageData } from '../../src/site/provider-page-data.ts';
import { landingListsInOnePass } from '../../src/query/site-landing-lists.ts';
import { providerPageMeta } from '../../src/site/provider-page.ts';
import { reportPage } from '../../src/site/report-page.ts';
import { buildVicCard } from '../../src/web/vic.ts';
import type { ProviderRecord, ReportRecord } from '../../src/schemas/dataset.ts';
import type { ReportResponse } from '../../src/schemas/api/responses.ts';
import type { ProviderSummary } from '../../src/schemas/provider.ts';
import { testAppContext } from '../support/app-context.ts';
import { capsLock, expectedNames, expectFiguresTrue, harden, isPublishedRecord, oracle, slugOf } from './statistics-oracle.ts';

const PROVIDERS = 700;
const URLS = { webUrl: 'https://direktori.example.id', apiUrl: 'https://direktori.example.id' };
const SEED_REPORT = 'web-development-indonesia-2026';

interface DatasetCase {
  label: string;
  generated: boolean;
  /** writes the dataset into `dir` */
  make(dir: string): Promise<void>;
}

const CASES: DatasetCase[] = [
  { label: 'the seed (data/seed)', generated: false, make: async (dir) => fs.cpSync('data/seed', dir, { recursive: true }) },
  ...[5, 29].map((seed) => ({
    label: `a generated dataset (seed ${seed}, ${PROVIDERS} providers, made harder)`,
    generated: true,
    make: async (dir: string) => {
      await generateDataset({ providers: PROVIDERS, seed, outDir: dir });
      const file = path.join(dir, 'providers.ndjson');
      const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProviderRecord);
      fs.writeFileSync(file, harden(records).map((r) => `${JSON.stringify(r)}\n`).join(''));
    },
  })),
];

for (const dataset of CASES) {
  describe(dataset.label, () => {
    let dir: string;
    let db: Database.Database;
    let snapshot: Snapshot;
    let app: AppContext;
    let services: KeyServices;
    let records: ProviderRecord[];
    let reports: ReportRecord[];
    let categories: { id: string; slug: string; root: boolean }[];
    /** the name each place should be shown by, derived by the oracle from the published spellings */
    let cityNames: Map<string, string>;
    let provinceNames: Map<string, string>;
    const cityName = (slug: string) => cityNames.get(slug) ?? `(no name for ${slug})`;

    const api = async (pathAndQuery: string, headers: Record<string, string> = {}) => {
      const res = (await handleRequest(new Request(`http://test${pathAndQuery}`, { headers }), app))!;
      expect(res.status, pathAndQuery).toBe(200);
      return await res.json();
    };
    const everyListed = async (query: string): Promise<ProviderSummary[]> => {
      const items: ProviderSummary[] = [];
      for (let page = 1; ; page++) {
        const body = await api(`/api/v1/providers?limit=50&page=${page}${query}`);
        items.push(...body.data);
        if (page >= body.meta.totalPages) return items;
      }
    };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statistics-'));
      const data = path.join(dir, 'data');
      await dataset.make(data);
      records = fs.readFileSync(path.join(data, 'providers.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProviderRecord);
      // A report for every usable category (a child of an inactive parent is not usable).
      const cats = JSON.parse(fs.readFileSync(path.join(data, 'categories.json'), 'utf8')) as { id: string; slug: string; parentId: string | null; active: boolean }[];
      const byId = new Map(cats.map((c) => [c.id, c]));
      categories = cats
        .filter((c) => c.active && (c.parentId === null || byId.get(c.parentId)?.active))
        .map((c) => ({ id: c.id, slug: c.slug, root: c.parentId === null }));
      reports = categories.map((c) => ({ slug: `${c.slug}-indonesia-2026`, title: `${c.slug} 2026`, categorySlug: c.slug, country: 'ID', year: 2026, summary: 'Uji.' }));
      fs.writeFileSync(path.join(data, 'reports.json'), JSON.stringify(reports));
      const dbFile = path.join(dir, 'directory.db');
      await buildSnapshot({ inputDir: data, outFile: dbFile });
      db = new Database(dbFile, { readonly: true, fileMustExist: true });
      snapshot = new Snapshot(dbFile);
      services = createKeyServices({ keysDb: path.join(dir, 'keys.db') });
      app = testAppContext({ DIRECTORY_DB: dbFile }, { keyServices: services });
      cityNames = expectedNames(records, 'city');
      provinceNames = expectedNames(records, 'province');
    }, 180_000);

    afterAll(async () => {
      db?.close();
      snapshot?.close();
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const recordBySlug = () => new Map(records.map((r) => [r.slug, r]));

    if (!dataset.generated) it('the seed report counts its 134 rated providers, says 7 have no reviews, and names Denpasar so', async () => {
      const { data } = (await api(`/api/v1/reports/${SEED_REPORT}`)) as ReportResponse;
      expect(data).toMatchObject({ totalProviders: 141, providersWithReviews: 134, providersWithoutReviews: 7, averageRating: '4.41' });
      expect(data.ratingDistribution.find((b) => b.range === '0.00-0.99')!.count).toBe(0);
      expect(data.byCity.map((c) => c.city)).toContain('Denpasar');
      const page = reportPage(snapshot, SEED_REPORT, URLS)!;
      expect(page.charts!.ratings!.columns.reduce((n, c) => n + c.value, 0)).toBe(134);
      const names = [
        ...(await everyListed('')).map((p) => p.city),
        ...data.byCity.map((c) => c.city),
        ...((await api('/api/v1/discovery/programmatic-params?limit=1000')).data as { city: string }[]).map((p) => p.city),
      ];
      expect(names).toContain('Denpasar');
      for (const spelling of ['DENPASAR', 'denpasar', 'bandung']) expect(names).not.toContain(spelling);
    });

    if (dataset.generated) it('is as hard as meant: unrated providers (some claiming a rating), caps-lock and hyphenated spellings', () => {
      const published = records.filter((r) => isPublishedRecord(r));
      expect(published.filter((r) => r.totalReviews === 0 && r.overallRating > 0).length).toBeGreaterThan(5);
      expect(published.filter((r) => r.totalReviews > 0 && r.overallRating < 1).length).toBeGreaterThan(2);
      for (const s of ['MALANG', 'semarang', 'SURABAYA', 'Jakarta-Selatan', 'denpasar']) expect(published.some((r) => r.city === s), s).toBe(true);
      expect(published.some((r) => r.province === 'BALI')).toBe(true);
      expect(cityNames.get('malang')).toBe('Malang');
      expect(cityNames.get('semarang')).toBe('Semarang');
      expect(cityNames.get('denpasar')).toBe('Denpasar');
      expect(provinceNames.get('bali')).toBe('Bali');
    });

    it('every report the API answers equals the same figures computed with SQL under the rule', async () => {
      let withUnrated = 0;
      for (const r of reports) {
        const body = (await api(`/api/v1/reports/${r.slug}`)) as ReportResponse;
        const category = categories.find((c) => c.slug === r.categorySlug)!;
        const expected = oracle(db, cityName, category, 'ID');
        expectFiguresTrue(body.data, expected, r.slug);
        if (expected.figures.providersWithoutReviews > 0) withUnrated++;
      }
      expect(withUnrated).toBeGreaterThan(reports.length / 2);
    });

    it("every category page's figures (all countries) equal the SQL figures, the unrated count said beside the rating chart", () => {
      for (const c of categories) {
        const page = categoryPage(snapshot, c.slug, URLS)!;
        const expected = oracle(db, cityName, c, null);
        if (expected.figures.totalProviders === 0) {
          expect(page.charts, c.slug).toBeNull();
          continue;
        }
        const { figures } = page.charts!;
        expect(
          { byCity: figures.byCity, providersWithReviews: figures.providersWithReviews, providersWithoutReviews: figures.providersWithoutReviews, ratingDistribution: figures.ratingDistribution, trustDistribution: figures.trustDistribution },
          c.slug,
        ).toEqual({
          byCity: expected.figures.byCity,
          providersWithReviews: expected.figures.providersWithReviews,
          providersWithoutReviews: expected.figures.providersWithoutReviews,
          ratingDistribution: expected.figures.ratingDistribution,
          trustDistribution: expected.figures.trustDistribution,
        });
        expect(page.charts!.ratings?.columns.map((col) => col.value) ?? null).toEqual(figures.providersWithReviews ? figures.ratingDistribution.map((b) => b.count) : null);
        const unrated = expected.figures.providersWithoutReviews;
        if (unrated > 0) expect(page.charts!.sentences.unrated).toMatch(new RegExp(`^${unrated} penyedia belum memiliki ulasan`));
        else expect(page.charts!.sentences.unrated).toBeNull();
      }
    });

    it('shows every city and province by its one name, never all capitals or all lower case', async () => {
      const bySlug = recordBySlug();
      const shown: ProviderSummary[] = [
        ...(await everyListed('')),
        ...((await api('/api/v1/search?q=jasa%20pembuatan%20website&limit=50')).data as ProviderSummary[]),
      ];
      expect(shown.length).toBeGreaterThan(PROVIDERS / 2);
      for (const p of shown) {
        const record = bySlug.get(p.slug)!;
        expect(p.city, p.slug).toBe(record.city === null ? null : cityName(slugOf(record.city)));
        expect(p.province, p.slug).toBe(record.province === null ? null : provinceNames.get(slugOf(record.province)));
      }
      const names = [
        ...shown.flatMap((p) => [p.city, p.province]),
        ...((await api('/api/v1/discovery/programmatic-params?limit=1000')).data as { city: string; citySlug: string }[]).map((p) => {
          expect(p.city).toBe(cityName(p.citySlug));
          return p.city;
        }),
        ...(await Promise.all(reports.map(async (r) => ((await api(`/api/v1/reports/${r.slug}`)) as ReportResponse).data.byCity.map((c) => c.city)))).flat(),
      ].filter((n): n is string => n !== null);
      for (const name of names) expect(capsLock(name), name).toBe(false);
      expect(names).toContain('Malang');
      expect(names).not.toContain('MALANG');
    });

    it('filters by city and location accept every spelling the data uses, and the name shown', async () => {
      const published = records.filter((r) => isPublishedRecord(r));
      // Every spelling of a few places, each also in capitals and in lower case, and the name shown.
      const places = ['malang', 'surabaya', 'denpasar', 'jakarta-selatan', 'bandung'];
      const spellings = new Set(places.flatMap((slug) => [
        cityName(slug),
        ...published.flatMap((r) => (r.city !== null && slugOf(r.city) === slug ? [r.city, r.city.toUpperCase(), r.city.toLowerCase()] : [])),
      ]));
      expect(spellings.size).toBeGreaterThanOrEqual(places.length * 3);
      for (const spelling of spellings) {
        const expected = published.filter((r) => r.city?.toLowerCase() === spelling.toLowerCase()).map((r) => r.slug).sort();
        expect(expected.length, spelling).toBeGreaterThan(0);
        const byCity = (await everyListed(`&city=${encodeURIComponent(spelling)}`)).map((p) => p.slug).sort();
        const byLocation = (await everyListed(`&location=${encodeURIComponent(spelling)}`)).map((p) => p.slug).sort();
        expect(byCity, spelling).toEqual(expected);
        expect(byLocation, spelling).toEqual(expected);
      }
      for (const spelling of ['BALI', 'bali', 'Bali']) {
        const expected = published.filter((r) => r.province?.toLowerCase() === 'bali').map((r) => r.slug).sort();
        expect((await everyListed(`&location=${spelling}`)).map((p) => p.slug).sort()).toEqual(expected);
      }
      // Landing pages and their API group every spelling of a slug, the hyphenated one too.
      const family = new Set(db.prepare(`SELECT id FROM categories WHERE slug = 'web-development'
        OR (active = 1 AND parent_id = (SELECT id FROM categories WHERE slug = 'web-development'))`).pluck().all() as string[]);
      const landing = published
        .filter((r) => r.city !== null && slugOf(r.city) === 'jakarta-selatan' && r.trustLevel >= 1 && r.categoryIds.some((c) => family.has(c)))
        .map((r) => r.slug)
        .sort();
      const programmatic = await api('/api/v1/discovery/programmatic?categorySlug=web-development&citySlug=jakarta-selatan&limit=50');
      expect(landing.length).toBeLessThanOrEqual(50);
      expect(programmatic.data.map((p: ProviderSummary) => p.slug).sort()).toEqual(landing);
      expect(programmatic.data.every((p: ProviderSummary) => p.city === 'Jakarta Selatan')).toBe(true);
    });

    it('rates nobody without reviews: summaries, VIC cards, JSON-LD (never an aggregateRating of 0) and compare', async () => {
      const rows = db.prepare('SELECT slug, total_reviews AS reviews, overall_rating AS rating FROM published_providers ORDER BY slug').all() as { slug: string; reviews: number; rating: number }[];
      const unrated = rows.filter((r) => r.reviews === 0);
      expect(unrated.length).toBeGreaterThan(10);
      // The stored rating of an unrated provider is 0 even when its record claimed one.
      expect(unrated.every((r) => r.rating === 0)).toBe(true);
      let aggregates = 0;
      for (const { slug, reviews } of rows) {
        const data = providerPageData(snapshot, slug, { lists: landingListsInOnePass(snapshot), pageSlugs: () => [] })!;
        const card = buildVicCard(data.detail, data.proofs, URLS);
        const ld = providerPageMeta(data, URLS).jsonLd.find((j) => j['@type'] === 'ProfessionalService')!;
        const aggregate = ld.aggregateRating as { reviewCount?: number; ratingCount?: number; ratingValue: number } | undefined;
        if (reviews === 0) {
          expect(data.detail.overallRating).toBe('0.00');
          expect(card.trust.overallRating).toBeNull();
          expect(aggregate).toBeUndefined();
        } else {
          expect(card.trust.overallRating).toBe(Number(data.detail.overallRating));
          expect(aggregate!.reviewCount ?? aggregate!.ratingCount).toBe(reviews);
          aggregates++;
        }
        if (aggregate) expect(aggregate.reviewCount ?? aggregate.ratingCount).toBeGreaterThan(0);
      }
      expect(aggregates).toBeGreaterThan(rows.length / 2);
      const rated = rows.find((r) => r.reviews > 0)!;
      const compared = await api(`/api/v1/discovery/compare?slugA=${unrated[0]!.slug}&slugB=${rated.slug}`);
      expect(compared.data.map((p: ProviderSummary) => [p.overallRating === '0.00', p.totalReviews === 0])).toEqual([[true, true], [false, false]]);
    });

    it('the AI reasons give no rating without reviews, and name cities as they are shown', async () => {
      const key = (await services.keys.create({ tier: 'enterprise' })).key;
      const unratedNames = records
        .filter((r) => r.totalReviews === 0 && isPublishedRecord(r))
        .slice(0, 3)
        .map((r) => r.companyName);
      let unratedSeen = 0;
      let ratedSeen = 0;
      for (const q of ['jasa pembuatan website', 'aplikasi mobile android', 'jasa seo di denpasar', ...unratedNames]) {
        const body = await api(`/api/ai/recommend?q=${encodeURIComponent(q)}&limit=10`, { 'X-API-Key': key });
        for (const item of body.data as (ProviderSummary & { reason: string })[]) {
          if (item.totalReviews === 0) {
            unratedSeen++;
            expect(item.reason, item.slug).toMatch(/belum ada ulasan|no reviews yet/);
            expect(item.reason).not.toMatch(/rating 0[.,]00|rated 0[.,]00/);
          } else {
            ratedSeen++;
            expect(item.reason, item.slug).toMatch(new RegExp(`(rating|rated) ${item.overallRating.replace('.', '\\.')} `));
          }
          if (item.city) expect(item.reason, item.slug).toContain(item.city);
        }
      }
      expect(unratedSeen).toBeGreaterThan(0);
      expect(ratedSeen).toBeGreaterThan(0);
      // A city read from the request is applied and reported by its name, whatever the spelling typed.
      const malang = await api(`/api/ai/recommend?q=${encodeURIComponent('toko online di MALANG')}&limit=5`, { 'X-API-Key': key });
      expect(malang.meta.understood.place).toMatchObject({ kind: 'city', name: 'Malang' });
      for (const item of malang.data as ProviderSummary[]) expect(item.city).toBe('Malang');
    });
  });
}
