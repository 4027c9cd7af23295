/**
 * Report pages (/laporan/{slug}): the report exactly as GET /api/v1/reports/{slug}
 * answers it (the same `report()` call, no second computation), turned into chart
 * models, a description, breadcrumbs and Dataset JSON-LD.
 */
import { report, reportLastUpdated, reportListings } from '../query/reports.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { ReportResponse } from '../schemas/api/responses.ts';
import type { BarChartModel } from './charts/bar-chart.ts';
import type { ColumnChartModel } from './charts/column-chart.ts';
import type { RangeChartModel } from './charts/range-chart.ts';
import { excerpt, formatCount } from '../text/format.ts';
import { breadcrumbJsonLd, reportJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import { cityChart, moneyChart, ratingChart, trustChart, type CityChart } from './report-charts.ts';
import { absoluteUrl, categoryPath, reportApiPath, reportPath, type PublicUrls } from '../web/urls.ts';

/** Cities drawn on the report's chart; the table beside it lists every city. */
export const REPORT_CITY_BARS = 12;

export const reportParams = (snapshot: Snapshot) => reportListings(snapshot).map((r) => ({ params: { slug: r.slug } }));

const countryNames = new Intl.DisplayNames('id', { type: 'region' });
const countryName = (code: string) => countryNames.of(code) ?? code;

export interface ReportPage {
  report: ReportResponse['data'];
  /** the latest update of a provider counted (null when none is): the date of the data */
  dataDate: string | null;
  countryName: string;
  /** the same figures as JSON on the API */
  apiUrl: string;
  /** null when the report counts no provider */
  charts: {
    cities: CityChart;
    trust: BarChartModel;
    /** null when no provider counted has reviews */
    ratings: ColumnChartModel | null;
    hourlyRate: RangeChartModel | null;
    minProjectBudget: RangeChartModel | null;
  } | null;
  description: string;
  crumbs: Crumb[];
  jsonLd: JsonLd[];
}

export function reportPage(snapshot: Snapshot, slug: string, urls: PublicUrls): ReportPage | undefined {
  const body = report(snapshot, slug);
  if (!body) return undefined;
  const { data } = body;
  const dataDate = reportLastUpdated(snapshot, slug) ?? null;
  const { webUrl, apiUrl } = urls;
  const country = countryName(data.country);
  const crumbs: Crumb[] = [
    { name: 'Beranda', path: '/' },
    { name: data.category.name, path: categoryPath(data.category.slug) },
    { name: data.title, path: reportPath(data.slug) },
  ];
  const description = excerpt(
    `${data.title}: ${formatCount(data.totalProviders)} penyedia ${data.category.name} yang dipublikasikan di ${country}, menurut kota, rating, tingkat kepercayaan, tarif dan anggaran. ${data.summary}`,
  );
  return {
    report: data,
    dataDate,
    countryName: country,
    apiUrl: absoluteUrl(apiUrl, reportApiPath(data.slug)),
    charts: data.totalProviders === 0 ? null : {
      cities: cityChart(data.byCity, REPORT_CITY_BARS),
      trust: trustChart(data.trustDistribution),
      ratings: data.providersWithReviews === 0 ? null : ratingChart(data.ratingDistribution),
      hourlyRate: moneyChart(data.commercial.hourlyRate),
      minProjectBudget: moneyChart(data.commercial.minProjectBudget),
    },
    description,
    crumbs,
    jsonLd: [reportJsonLd({ report: data, dataDate, countryName: country, description, webUrl, apiUrl }), breadcrumbJsonLd(crumbs, webUrl)],
  };
}
