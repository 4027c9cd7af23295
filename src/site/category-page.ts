/** Category pages: one per usable category and subcategory, with or without providers. */
import { programmaticParams } from '../query/discovery.ts';
import { marketFigures, reportListings, tallyEveryCategory, type MarketFigures, type ReportListing } from '../query/reports.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { categoryProviders, usableCategories, type UsableCategory } from '../query/site-taxonomy.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import type { BarChartModel } from './charts/bar-chart.ts';
import { breadcrumbJsonLd, itemListJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import type { ColumnChartModel } from './charts/column-chart.ts';
import { chartSentences, cityChart, ratingChart, trustChart, type CityChart } from './report-charts.ts';
import { categoryPath, type PublicUrls } from '../web/urls.ts';
import { inRenderScope, type RenderScope } from './render-scope.ts';

export const CATEGORY_LIMIT = 30;
/** Cities drawn on a category page's small chart. */
export const CATEGORY_CITY_BARS = 8;

export const categoryParams = (snapshot: Snapshot) => usableCategories(snapshot).map((c) => ({ params: { slug: c.node.slug } }));

export interface CategoryPage {
  category: UsableCategory;
  providers: ProviderSummary[];
  total: number;
  /** landing pages of this (top-level) category, most providers first */
  cities: { path: string; city: string; providerCount: number }[];
  /** small charts of the category's providers (all countries): cities, trust, ratings; null when it has none */
  charts: CategoryCharts | null;
  /** market reports about this category */
  reports: ReportListing[];
  description: string;
  crumbs: Crumb[];
  jsonLd: JsonLd[];
}

export interface CategoryCharts {
  figures: Pick<MarketFigures, 'byCity' | 'trustDistribution' | 'ratingDistribution' | 'providersWithReviews' | 'providersWithoutReviews'>;
  cities: CityChart;
  trust: BarChartModel;
  /** null when no provider of the category has reviews */
  ratings: ColumnChartModel | null;
  sentences: ReturnType<typeof chartSentences>;
}

function categoryCharts(figures: MarketFigures): CategoryCharts | null {
  if (figures.totalProviders === 0) return null;
  const cities = cityChart(figures.byCity, CATEGORY_CITY_BARS);
  return {
    figures,
    cities,
    trust: trustChart(figures.trustDistribution),
    ratings: figures.providersWithReviews === 0 ? null : ratingChart(figures.ratingDistribution),
    sentences: chartSentences(figures, cities),
  };
}

/**
 * Before this build's category pages read their figures: where it renders more than a third
 * of them (a full build, a large publish), every category's figures are tallied in one read
 * (tallyEveryCategory), which then costs less than each page's own read of its rows.
 */
export function prepareCategoryFigures(snapshot: Snapshot, scope: RenderScope): void {
  snapshot.memo('site:category-figures', () => {
    const usable = usableCategories(snapshot);
    const rendered = usable.filter((c) => inRenderScope(scope, categoryPath(c.node.slug))).length;
    if (rendered > usable.length / 3) tallyEveryCategory(snapshot);
    return true;
  });
}

export function categoryPage(snapshot: Snapshot, slug: string, urls: PublicUrls): CategoryPage | undefined {
  const category = usableCategories(snapshot).find((c) => c.node.slug === slug);
  if (!category) return undefined;
  const { node, parent } = category;
  const { data, total } = categoryProviders(snapshot, node, CATEGORY_LIMIT);
  const cities =
    parent === null
      ? programmaticParams(snapshot)
          .filter((p) => p.categorySlug === node.slug)
          .map((p) => ({ path: p.path, city: p.city, providerCount: p.providerCount }))
      : [];
  const { webUrl } = urls;
  const crumbs: Crumb[] = [
    { name: 'Beranda', path: '/' },
    ...(parent ? [{ name: parent.name, path: categoryPath(parent.slug) }] : []),
    { name: node.name, path: categoryPath(node.slug) },
  ];
  return {
    category,
    providers: data,
    total,
    cities,
    charts: categoryCharts(marketFigures(snapshot, node, null).figures),
    reports: reportListings(snapshot).filter((r) => r.categorySlug === node.slug),
    description:
      total > 0
        ? `${total} penyedia ${node.name} di direktori, diurutkan menurut tingkat kepercayaan lalu rating.`
        : `Kategori ${node.name}: belum ada penyedia yang dipublikasikan.`,
    crumbs,
    jsonLd: [itemListJsonLd(`Penyedia ${node.name}`, data, webUrl), breadcrumbJsonLd(crumbs, webUrl)],
  };
}
