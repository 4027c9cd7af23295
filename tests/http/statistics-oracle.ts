/**
 * The rule for statistics and place names (docs/interface.md), written again for the
 * tests without the code under test: the figures of a report or a category page as
 * SQL over the snapshot's published rows, the name a place should be shown by, and
 * the odd spellings and ratings a generated dataset is made harder with.
 */
import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { ProviderRecord } from '../../src/schemas/dataset.ts';
import type { ReportResponse } from '../../src/schemas/api/responses.ts';

/** citySlug as docs/interface.md states it. */
export const slugOf = (value: string) =>
  value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

export const isPublishedRecord = (r: ProviderRecord) => r.submissionStatus === 'approved' && r.publishedAt !== null;

/** Spellings the generator does not write, made from its own records (deterministic: by position). */
export function harden(records: ProviderRecord[]): ProviderRecord[] {
  let unrated = 0;
  let rated = 0;
  const seen = new Map<string, number>();
  const nth = (key: string) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n;
  };
  return records.map((r) => {
    const p = { ...r };
    if (p.city === 'Malang') p.city = 'MALANG'; // only capitals: shown title-cased
    else if (p.city === 'Semarang') p.city = 'semarang'; // only lower case
    else if (p.city === 'Surabaya' && nth('sby') % 3 === 0) p.city = 'SURABAYA';
    else if (p.city === 'Yogyakarta' && nth('yk') % 4 === 0) p.city = 'yogyakarta';
    else if (p.city === 'Jakarta Selatan' && nth('jks') % 5 === 0) p.city = 'Jakarta-Selatan'; // same slug, not only case
    else if (p.city === 'Denpasar') p.city = ['Denpasar', 'DENPASAR', 'denpasar'][nth('dps') % 3]!;
    if (p.province === 'Bali') p.province = 'BALI';
    else if (p.province === 'Jawa Timur' && nth('jatim') % 3 === 0) p.province = 'jawa timur';
    if (p.totalReviews === 0 && ++unrated % 2 === 0) p.overallRating = 3.7; // claims a rating without reviews
    else if (p.totalReviews > 0 && ++rated % 40 === 0) p.overallRating = 0.5; // a real rating below 1
    return p;
  });
}

const hasUpper = (s: string) => /\p{Lu}/u.test(s);
const hasLower = (s: string) => /\p{Ll}/u.test(s);
export const capsLock = (s: string) => hasUpper(s) !== hasLower(s);

/** The name of a place from its spellings: most common well-cased, else the most common title-cased. */
export function expectedName(spellings: Map<string, number>): string {
  const order = [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const good = order.find(([s]) => hasUpper(s) && hasLower(s));
  if (good) return good[0];
  return order[0]![0].toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
}

const BUCKETS = ['0.00-0.99', '1.00-1.99', '2.00-2.99', '3.00-3.99', '4.00-4.49', '4.50-5.00'];
const BUCKET_SQL = `CASE WHEN overall_rating < 1 THEN '0.00-0.99' WHEN overall_rating < 2 THEN '1.00-1.99'
  WHEN overall_rating < 3 THEN '2.00-2.99' WHEN overall_rating < 4 THEN '3.00-3.99'
  WHEN overall_rating < 4.5 THEN '4.00-4.49' ELSE '4.50-5.00' END`;

/** The providers of a category (a top-level one with its active children) in a country, or in all (null). */
const SCOPE_SQL = `
  WITH scope AS (
    SELECT p.* FROM published_providers p
    WHERE (:country IS NULL OR p.country = :country)
      AND EXISTS (SELECT 1 FROM provider_categories pc JOIN categories c ON c.id = pc.category_id
                  WHERE pc.provider_rowid = p.rowid
                    AND (c.id = :id OR (:root = 1 AND c.parent_id = :id AND c.active = 1))))`;

const median = (column: string) => `
  SELECT count(*) AS n, min(${column}) AS min, max(${column}) AS max,
         (SELECT avg(v) FROM (SELECT ${column} AS v, row_number() OVER (ORDER BY ${column}) AS i, count(*) OVER () AS n
                              FROM scope WHERE ${column} IS NOT NULL) WHERE i IN ((n + 1) / 2, (n + 2) / 2)) AS median
  FROM scope WHERE ${column} IS NOT NULL`;

type Figures = Pick<
  ReportResponse['data'],
  'totalProviders' | 'byCity' | 'providersWithReviews' | 'providersWithoutReviews' | 'ratingDistribution' | 'trustDistribution' | 'averageRating' | 'commercial'
>;

interface Oracle {
  figures: Omit<Figures, 'averageRating'>;
  /** the mean rating of the rated providers, unrounded, or null */
  mean: number | null;
}

export function oracle(db: Database.Database, cityName: (slug: string) => string, category: { id: string; root: boolean }, country: string | null): Oracle {
  const params = { id: category.id, root: category.root ? 1 : 0, country };
  const one = <T,>(sql: string) => db.prepare(`${SCOPE_SQL} ${sql}`).get(params) as T;
  const all = <T,>(sql: string) => db.prepare(`${SCOPE_SQL} ${sql}`).all(params) as T[];
  const counts = one<{ total: number; rated: number; unrated: number; mean: number | null }>(`
    SELECT count(*) AS total, count(*) FILTER (WHERE total_reviews > 0) AS rated,
           count(*) FILTER (WHERE total_reviews = 0) AS unrated, avg(overall_rating) FILTER (WHERE total_reviews > 0) AS mean
    FROM scope`);
  const buckets = new Map(all<{ b: string; n: number }>(`SELECT ${BUCKET_SQL} AS b, count(*) AS n FROM scope WHERE total_reviews > 0 GROUP BY b`).map((r) => [r.b, r.n]));
  const trust = new Map(all<{ t: number; n: number }>('SELECT trust_level AS t, count(*) AS n FROM scope GROUP BY t').map((r) => [r.t, r.n]));
  const cities = all<{ slug: string; n: number }>('SELECT city_slug AS slug, count(*) AS n FROM scope WHERE city_slug IS NOT NULL GROUP BY city_slug ORDER BY n DESC, city_slug');
  const money = (column: string) => {
    const m = one<{ n: number; min: number | null; max: number | null; median: number | null }>(median(column));
    return { providersWithDisplayableValue: m.n, minIdr: m.min, medianIdr: m.median, maxIdr: m.max };
  };
  return {
    mean: counts.mean,
    figures: {
      totalProviders: counts.total,
      byCity: cities.map((c) => ({ city: cityName(c.slug), citySlug: c.slug, count: c.n })),
      providersWithReviews: counts.rated,
      providersWithoutReviews: counts.unrated,
      ratingDistribution: BUCKETS.map((range) => ({ range, count: buckets.get(range) ?? 0 })),
      trustDistribution: [0, 1, 2, 3, 4, 5].map((t) => ({ trustLevel: t, count: trust.get(t) ?? 0 })),
      commercial: { hourlyRate: money('hourly_rate_idr'), minProjectBudget: money('min_project_budget_idr') },
    },
  };
}

export function expectFiguresTrue(actual: Figures, expected: Oracle, label: string) {
  const { averageRating, ...rest } = actual;
  expect(pick(rest), label).toEqual(expected.figures);
  // Unrated providers are in no bucket: the buckets add up to the rated ones, and all of them to the total.
  expect(actual.ratingDistribution.reduce((s, b) => s + b.count, 0), label).toBe(actual.providersWithReviews);
  expect(actual.providersWithReviews + actual.providersWithoutReviews, label).toBe(actual.totalProviders);
  if (expected.mean === null) expect(averageRating, label).toBeNull();
  else expect(Math.abs(Number(averageRating) - expected.mean), `${label}: ${averageRating} vs ${expected.mean}`).toBeLessThanOrEqual(0.005 + 1e-9);
}

const pick = (f: Omit<Figures, 'averageRating'>): Omit<Figures, 'averageRating'> => ({
  totalProviders: f.totalProviders,
  byCity: f.byCity,
  providersWithReviews: f.providersWithReviews,
  providersWithoutReviews: f.providersWithoutReviews,
  ratingDistribution: f.ratingDistribution,
  trustDistribution: f.trustDistribution,
  commercial: f.commercial,
});

/** The name of every place (by slug) from the published records' spellings of `column`. */
export function expectedNames(records: ProviderRecord[], column: 'city' | 'province'): Map<string, string> {
  const spellings = new Map<string, Map<string, number>>();
  for (const r of records) {
    const value = r[column];
    if (value === null || !isPublishedRecord(r)) continue;
    const m = spellings.get(slugOf(value)) ?? new Map<string, number>();
    m.set(value, (m.get(value) ?? 0) + 1);
    spellings.set(slugOf(value), m);
  }
  return new Map([...spellings].map(([slug, m]) => [slug, expectedName(m)]));
}
