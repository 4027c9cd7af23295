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
// What a FigureRow reads of published_summaries p (the published rows, narrow: schema.sql).
const FIGURE_COLUMNS = `p.city_slug AS citySlug, p.city_name AS city, p.overall_rating AS rating, p.total_reviews AS reviews, p.trust_level AS trust,
  p.hourly_rate_idr AS hourly, p.min_project_budget_idr AS budget, coalesce(p.updated_at, p.published_at) AS updated`;
// A category's rows, read by rowid.
const FIGURES_SQL = `
  SELECT ${FIGURE_COLUMNS}
  FROM published_summaries p
  WHERE (:country IS NULL OR p.country = :country)
    AND p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc
                    WHERE pc.category_id IN (SELECT value FROM json_each(:categoryIds)))
  ORDER BY p.rowid`;

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

/** `values`: the displayable amounts only (a provider without one is not a 0). */
function moneyFigure(values: number[]) {
  const sorted = values.sort((a, b) => a - b);
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

/** Every report of the snapshot, newest year first (the report pages and their links). */
export const reportListings = (snapshot: Snapshot): ReportListing[] =>
  snapshot.memo('reports:listings', () => snapshot.prepare<[], ReportListing>(LISTING_SQL).all());

/**
 * The figures of a set of providers, tallied one row at a time (in rowid order: the rating sum's
 * order). It keeps what a median needs (the amounts, numbers only) and the latest date so far: a
 * render of every category page tallies each of a million providers in two or three categories.
 */
class FigureTally {
  private rows = 0;
  private readonly cities = new Map<string, { city: string; count: number }>();
  private readonly ratingCounts = RATING_BUCKETS.map(() => 0);
  private readonly trustCounts = TRUST_LEVELS.map(() => 0);
  private rated = 0;
  private ratingSum = 0;
  private readonly hourly: number[] = [];
  private readonly budget: number[] = [];
  private latest = Number.NEGATIVE_INFINITY;

  add(r: FigureRow): void {
    this.rows++;
    if (r.hourly !== null) this.hourly.push(r.hourly);
    if (r.budget !== null) this.budget.push(r.budget);
    this.latest = Math.max(this.latest, Date.parse(r.updated) || Number.NEGATIVE_INFINITY);
    if (isRated(r.reviews)) {
      this.rated++;
      this.ratingSum += r.rating;
      const bucket = RATING_BUCKETS.findIndex((b) => r.rating >= b.min && r.rating < b.max);
      if (bucket >= 0) this.ratingCounts[bucket]!++;
    }
    if (r.trust >= 0 && r.trust < this.trustCounts.length) this.trustCounts[r.trust]!++;
    if (r.citySlug === null || r.city === null) return;
    // Every spelling of a citySlug has the one name shown (src/snapshot/place-names.ts).
    const c = this.cities.get(r.citySlug) ?? { city: r.city, count: 0 };
    c.count++;
    this.cities.set(r.citySlug, c);
  }

  market(): Market {
    const byCity = [...this.cities]
      .map(([key, c]) => ({ city: c.city, citySlug: key, count: c.count }))
      .sort((a, b) => b.count - a.count || (a.citySlug < b.citySlug ? -1 : 1));
    const figures: MarketFigures = {
      totalProviders: this.rows,
      byCity,
      ratingDistribution: RATING_BUCKETS.map((b, i) => ({ range: b.range, count: this.ratingCounts[i]! })),
      trustDistribution: TRUST_LEVELS.map((t) => ({ trustLevel: t, count: this.trustCounts[t]! })),
      providersWithReviews: this.rated,
      providersWithoutReviews: this.rows - this.rated,
      averageRating: this.rated ? formatRating(this.ratingSum / this.rated) : null,
      commercial: { hourlyRate: moneyFigure(this.hourly), minProjectBudget: moneyFigure(this.budget) },
    };
    return { figures, lastUpdated: Number.isFinite(this.latest) ? new Date(this.latest).toISOString() : null };
  }
}

const marketMemo = (category: CategoryNode | undefined, country: string | null) => `market-figures:${category?.id ?? ''}:${country ?? '*'}`;

/**
 * Figures of the published providers in a category (and its active children), in
 * one country or in all of them (country null): a report's figures, and the
 * charts of a category page.
 */
export function marketFigures(snapshot: Snapshot, category: CategoryNode | undefined, country: string | null): Market {
  return snapshot.memo(marketMemo(category, country), () => {
    const tally = new FigureTally();
    if (category) {
      const rows = snapshot
        .prepare<[Record<string, unknown>], FigureRow>(FIGURES_SQL)
        .iterate({ country, categoryIds: JSON.stringify(categoryFilterIds(categoryTree(snapshot), category)) });
      for (const r of rows) tally.add(r);
    }
    return tally.market();
  });
}

// Every published provider's links with its figure columns, provider by provider in rowid order.
const ALL_FIGURES_SQL = `
  SELECT pc.provider_rowid AS rowid, pc.category_id AS categoryId, ${FIGURE_COLUMNS}
  FROM published_summaries p
  JOIN provider_categories pc ON pc.provider_rowid = p.rowid
  ORDER BY p.rowid`;

/**
 * Every category's figures in all countries (what marketFigures(snapshot, node, null) answers),
 * from one read of every published provider's links, kept where marketFigures finds them. For a
 * render of many category pages: each category's own read costs its rows, and a parent's rows are
 * read again with each child's; this reads each link once. The same rows, in the same order, as
 * each category's read (byte-identical pages: tests/site/bulk-reads.test.ts).
 */
export function tallyEveryCategory(snapshot: Snapshot): void {
  const tree = categoryTree(snapshot);
  // A linked category id -> the categories whose figures count it.
  const countedBy = new Map<string, CategoryNode[]>();
  for (const node of tree.byId.values()) {
    for (const id of categoryFilterIds(tree, node)) countedBy.set(id, [...(countedBy.get(id) ?? []), node]);
  }
  const tallies = new Map([...tree.byId.values()].map((node) => [node.id, new FigureTally()]));
  let current = -1;
  const counted = new Set<string>();
  for (const r of snapshot.prepare<[], FigureRow & { rowid: number; categoryId: string }>(ALL_FIGURES_SQL).iterate()) {
    if (r.rowid !== current) {
      current = r.rowid;
      counted.clear();
    }
    // A provider linked to a parent and its child is one provider of the parent.
    for (const node of countedBy.get(r.categoryId) ?? []) {
      if (counted.has(node.id)) continue;
      counted.add(node.id);
      tallies.get(node.id)!.add(r);
    }
  }
  for (const node of tree.byId.values()) snapshot.memo(marketMemo(node, null), () => tallies.get(node.id)!.market());
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
