/**
 * schema.org JSON-LD for pages, built as data and serialized HTML-safe: `<`, `>`,
 * `&`, U+2028 and U+2029 become \u003c-style escapes, so no provider text can
 * close the <script> element or break a JavaScript parser (docs/interface.md).
 */
import type { ReportResponse } from '../schemas/api/responses.ts';
import { isRated, type ProviderDetail } from '../schemas/provider.ts';
import { absoluteUrl, categoryPath, landingPath, providerPath, reportApiPath, reportPath, vicPath } from '../web/urls.ts';
import { safeHttpUrl } from '../text/format.ts';

export type JsonLd = Record<string, unknown>;

const UNSAFE = /[<>&\u2028\u2029]/g;

export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface ProviderJsonLdInput {
  detail: ProviderDetail;
  webUrl: string;
  minProjectBudgetIdr: number | null;
}

export function providerJsonLd({ detail, webUrl, minProjectBudgetIdr }: ProviderJsonLdInput): JsonLd {
  const url = absoluteUrl(webUrl, providerPath(detail.slug));
  const ld: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${url}#organization`,
    name: detail.companyName,
    url,
    description: detail.description || detail.tagline,
    slogan: detail.tagline || undefined,
    address: {
      '@type': 'PostalAddress',
      addressLocality: detail.city ?? undefined,
      addressRegion: detail.province ?? undefined,
      addressCountry: detail.country,
    },
    knowsAbout: [...detail.categories.map((c) => c.name), ...detail.capabilityTags],
    knowsLanguage: detail.languagesSupported.length ? detail.languagesSupported : undefined,
    sameAs: safeHttpUrl(detail.website) ?? undefined,
    subjectOf: { '@type': 'Dataset', name: 'Kartu VIC', url: absoluteUrl(webUrl, vicPath(detail.slug)), encodingFormat: 'application/ld+json' },
  };
  // A rating only where there are reviews: an aggregateRating of 0 reviews would be a rating of nothing.
  if (isRated(detail.totalReviews)) {
    ld.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: Number(detail.overallRating),
      reviewCount: detail.totalReviews,
      bestRating: 5,
      worstRating: 0,
    };
  }
  const prices: string[] = [];
  if (detail.avgHourlyRate !== null) prices.push(`IDR ${Math.round(detail.avgHourlyRate)}/jam`);
  if (minProjectBudgetIdr !== null) prices.push(`proyek mulai IDR ${Math.round(minProjectBudgetIdr)}`);
  if (prices.length) ld.priceRange = prices.join('; ');
  return ld;
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbJsonLd(crumbs: Crumb[], webUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absoluteUrl(webUrl, c.path),
    })),
  };
}

export interface ListedProvider {
  slug: string;
  companyName: string;
}

export function itemListJsonLd(name: string, providers: ListedProvider[], webUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name,
    numberOfItems: providers.length,
    itemListOrder: 'https://schema.org/ItemListOrderDescending',
    itemListElement: providers.map((p, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: p.companyName,
      url: absoluteUrl(webUrl, providerPath(p.slug)),
    })),
  };
}

export const landingUrl = (webUrl: string, categorySlug: string, citySlug: string) =>
  absoluteUrl(webUrl, landingPath(categorySlug, citySlug));
export const categoryUrl = (webUrl: string, slug: string) => absoluteUrl(webUrl, categoryPath(slug));

export interface ReportJsonLdInput {
  report: ReportResponse['data'];
  /** the latest update of the providers counted */
  dataDate: string | null;
  countryName: string;
  description: string;
  webUrl: string;
  apiUrl: string;
}

/** A report page as a schema.org Dataset; its JSON on the API is the download. */
export function reportJsonLd({ report, dataDate, countryName, description, webUrl, apiUrl }: ReportJsonLdInput): JsonLd {
  const url = absoluteUrl(webUrl, reportPath(report.slug));
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': `${url}#dataset`,
    name: report.title,
    description,
    url,
    inLanguage: 'id',
    isAccessibleForFree: true,
    temporalCoverage: String(report.year),
    spatialCoverage: { '@type': 'Place', name: countryName },
    dateModified: dataDate ?? undefined,
    keywords: [report.category.name, countryName, 'penyedia jasa', 'laporan pasar'],
    about: { '@type': 'Thing', name: report.category.name, url: categoryUrl(webUrl, report.category.slug) },
    variableMeasured: [
      'jumlah penyedia per kota',
      'sebaran rating',
      'sebaran tingkat kepercayaan',
      'tarif per jam (IDR, hanya nilai yang dapat ditampilkan)',
      'anggaran proyek minimum (IDR, hanya nilai yang dapat ditampilkan)',
    ],
    creator: { '@type': 'Organization', name: 'Direktori Penyedia Jasa', url: `${webUrl.replace(/\/+$/, '')}/` },
    distribution: [{ '@type': 'DataDownload', encodingFormat: 'application/json', contentUrl: absoluteUrl(apiUrl, reportApiPath(report.slug)) }],
  };
}
