/**
 * Reports: a record of the dataset (title, summary, category, country, year) plus
 * figures computed from the snapshot's published providers in that category (and
 * its active children) and country. The rule for statistics (docs/interface.md,
 * "Statistics"): an average, median or distribution counts only the providers
 * that have the value, and those without it are counted apart. Ratings count rated
 * providers only (isRated: at least one review); commercial figures read
 * displayable IDR values only (the snapshot's money columns hold nothing else), so
 * no report can reveal a hidden amount. Cities are named by providers.city_name.
 * The API, the report pages (/laporan/{slug}) and the category pages' charts all
 * read these figures from `marketFigures`: one computation.
 */
import type { ReportResponse } from '../schemas/api/responses.ts';
import { categoryFilterIds, categoryTree, toCategoryRef, type CategoryNode } from './categories.ts';
import { isRated } from '../schemas/provider.ts';
import { formatRating } from './projections.ts';
import type { Snapshot } from './snapshot.ts';

interface ReportRecordRow {
  slug: string;
  title: string;
  category_slug: string;
  country: string;
  year: number;
  summary: string;
}

export interface ReportListing {
  slug: string;
  title: string;
  categorySlug: string;
  year: number;
}

interface FigureRow {
  citySlug: string | null;
  city: string | null;
  rating: number;
  reviews: number;
  trust: number;
  hourly: number | null;
  budget: number | null;
  updated: string;
}

const REPORT_SQL = 'SELECT slug, title, category_slug, country, year, summary FROM reports WHERE slug = ?';
const LISTING_SQL = 'SELECT slug, title, category_slug AS categorySlug, year FROM reports ORDER BY year DESC, slug';
// published_summaries: the published rows, narrow (schema.sql); a category's are read by rowid.
const FIGURES_SQL = `
  SELECT p.city_slug AS citySlug, p.city_name AS city, p.overall_rating AS rating, p.total_reviews AS reviews, p.trust_level AS trust,
         p.hourly_rate_idr AS hourly, p.min_project_budget_idr AS budget,
         coalesce(p.updated_at, p.published_at) AS updated
  FROM published_summaries p
  WHERE (:country IS NULL OR p.country = :country)
    AND p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc
                    WHERE pc.category_id IN (SELECT value FROM json_each(:categoryIds)))`;

/** Rated providers only: an unrated one is in no bucket (it has no rating, not a rating of 0). */
const RATING_BUCKETS = [
  { range: '0.00-0.99', min: 0, max: 1 },
  { range: '1.00-1.99', min: 1, max: 2 },
  { range: '2.00-2.99', min: 2, max: 3 },
  { range: '3.00-3.99', min: 3, max: 4 },
  { range: '4.00-4.49', min: 4, max: 4.5 },
  { range: '4.50-5.00', min: 4.5, max: Infinity },
];

const TRUST_LEVELS = [0, 1, 2, 3, 4, 5];

function moneyFigure(values: (number | null)[]) {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const n = sorted.length;
  const median = n === 0 ? null : n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { providersWithDisplayableValue: n, minIdr: sorted[0] ?? null, medianIdr: median, maxIdr: sorted[n - 1] ?? null };
}

export type MarketFigures = Omit<ReportResponse['data'], 'slug' | 'title' | 'summary' | 'year' | 'country' | 'category'>;

export interface Market {
  figures: MarketFigures;
  /**
   * The latest updatedAt (else publishedAt) of the providers counted: the date of
   * the data, for pages and sitemaps (never the build time, so two builds of the
   * same data are byte-identical). Null when no provider is counted.
   */
  lastUpdated: string | null;
}

function latestDate(dates: string[]): string | null {
  let best = Number.NEGATIVE_INFINITY;
  for (const d of dates) best = Math.max(best, Date.parse(d) || Number.NEGATIVE_INFINITY);
  return Number.isFinite(best) ? new Date(best).toISOString() : null;
}

/** Every report of the snapshot, newest year first (the report pages and their links). */
export const reportListings = (snapshot: Snapshot): ReportListing[] =>
  snapshot.memo('reports:listings', () => snapshot.prepare<[], ReportListing>(LISTING_SQL).all());

/**
 * Figures of the published providers in a category (and its active children), in
 * one country or in all of them (country null): a report's figures, and the
 * charts of a category page.
 */
export function marketFigures(snapshot: Snapshot, category: CategoryNode | undefined, country: string | null): Market {
  return snapshot.memo(`market-figures:${category?.id ?? ''}:${country ?? '*'}`, () => {
    const rows = category
      ? snapshot
          .prepare<[Record<string, unknown>], FigureRow>(FIGURES_SQL)
          .all({ country, categoryIds: JSON.stringify(categoryFilterIds(categoryTree(snapshot), category)) })
      : [];
    // One pass over the rows for every count.
    const cities = new Map<string, { city: string; count: number }>();
    const ratingCounts = RATING_BUCKETS.map(() => 0);
    const trustCounts = TRUST_LEVELS.map(() => 0);
    let rated = 0;
    let ratingSum = 0;
    for (const r of rows) {
      if (isRated(r.reviews)) {
        rated++;
        ratingSum += r.rating;
        const bucket = RATING_BUCKETS.findIndex((b) => r.rating >= b.min && r.rating < b.max);
        if (bucket >= 0) ratingCounts[bucket]!++;
      }
      if (r.trust >= 0 && r.trust < trustCounts.length) trustCounts[r.trust]!++;
      if (r.citySlug === null || r.city === null) continue;
      // Every spelling of a citySlug has the one name shown (src/snapshot/place-names.ts).
      const c = cities.get(r.citySlug) ?? { city: r.city, count: 0 };
      c.count++;
      cities.set(r.citySlug, c);
    }
    const byCity = [...cities]
      .map(([key, c]) => ({ city: c.city, citySlug: key, count: c.count }))
      .sort((a, b) => b.count - a.count || (a.citySlug < b.citySlug ? -1 : 1));
    const figures: MarketFigures = {
      totalProviders: rows.length,
      byCity,
      ratingDistribution: RATING_BUCKETS.map((b, i) => ({ range: b.range, count: ratingCounts[i]! })),
      trustDistribution: TRUST_LEVELS.map((t) => ({ trustLevel: t, count: trustCounts[t]! })),
      providersWithReviews: rated,
      providersWithoutReviews: rows.length - rated,
      averageRating: rated ? formatRating(ratingSum / rated) : null,
      commercial: { hourlyRate: moneyFigure(rows.map((r) => r.hourly)), minProjectBudget: moneyFigure(rows.map((r) => r.budget)) },
    };
    return { figures, lastUpdated: latestDate(rows.map((r) => r.updated)) };
  });
}

const reportRecord = (snapshot: Snapshot, slug: string) => snapshot.prepare<[string], ReportRecordRow>(REPORT_SQL).get(slug);
const reportMarket = (snapshot: Snapshot, record: ReportRecordRow) =>
  marketFigures(snapshot, categoryTree(snapshot).bySlug.get(record.category_slug), record.country);

/** The date of a report's data (see Market.lastUpdated), or undefined for an unknown slug. */
export function reportLastUpdated(snapshot: Snapshot, slug: string): string | null | undefined {
  const record = reportRecord(snapshot, slug);
  return record && reportMarket(snapshot, record).lastUpdated;
}

export function report(snapshot: Snapshot, slug: string): ReportResponse | undefined {
  const record = reportRecord(snapshot, slug);
  if (!record) return undefined;
  // Memoized per known report only: unknown slugs must not grow the cache.
  return snapshot.memo(`report:${record.slug}`, () => {
    const category = categoryTree(snapshot).bySlug.get(record.category_slug);
    return {
      data: {
        slug: record.slug,
        title: record.title,
        summary: record.summary,
        year: record.year,
        country: record.country,
        category: category ? toCategoryRef(category) : { id: '', slug: record.category_slug, name: record.category_slug },
        ...reportMarket(snapshot, record).figures,
      },
      meta: { generatedFrom: snapshot.id, builtAt: snapshot.meta.builtAt },
    };
  });
}
