/**
 * The one projection from a published_providers row to what the public sees.
 * Every transport (REST, search, compare, AI, MCP, pages, VIC) calls these, so the
 * displayable rules of docs/interface.md are applied in exactly one place.
 */
import type { CategoryRef, ProviderDetail, ProviderSummary, PublicDataMeta } from '../schemas/provider.ts';
import type { ProviderRow, SummaryRow } from './provider-row.ts';

type MoneySignal = PublicDataMeta['commercialSignals']['hourlyRate'];

function moneySignal(available: number, provenance: string | null, currencyClass: ProviderRow['budget_currency_class']): MoneySignal {
  const isAvailable = available === 1;
  const currency = isAvailable ? (currencyClass ?? 'UNKNOWN') : 'UNKNOWN';
  return {
    available: isAvailable,
    provenance: isAvailable ? (provenance ?? 'unknown') : 'none',
    currency,
    displayable: isAvailable && currency === 'IDR',
  };
}

export function commercialSignals(row: SummaryRow): PublicDataMeta['commercialSignals'] {
  const employees = row.employee_available === 1;
  return {
    employeeCount: {
      available: employees,
      provenance: employees ? (row.employee_provenance ?? 'unknown') : 'none',
      displayable: employees,
    },
    minProjectBudget: moneySignal(row.budget_available, row.budget_provenance, row.budget_currency_class),
    hourlyRate: moneySignal(row.rate_available, row.rate_provenance, row.rate_currency_class),
  };
}

/** Decimal strings of the spec: confidenceScore with 3 digits, overallRating with 2. */
export const formatConfidence = (n: number): string => n.toFixed(3);
export const formatRating = (n: number): string => n.toFixed(2);

export function toBusinessSummary(row: SummaryRow): ProviderSummary {
  return {
    id: row.id,
    slug: row.slug,
    companyName: row.company_name,
    tagline: row.tagline,
    // The names shown (one per place, src/snapshot/place-names.ts), never a raw spelling.
    city: row.city_name,
    province: row.province_name,
    country: row.country,
    trustLevel: row.trust_level,
    confidenceScore: formatConfidence(row.confidence_score),
    overallRating: formatRating(row.overall_rating),
    totalReviews: row.total_reviews,
    publicDataMeta: {
      profileProvenance: row.profile_provenance,
      commercialSignals: commercialSignals(row),
    },
  };
}

const jsonList = (text: string): string[] => JSON.parse(text) as string[];

/** The displayable hourly rate in IDR, or null. The only commercial value the API sends. */
export function displayableHourlyRate(row: ProviderRow): number | null {
  return commercialSignals(row).hourlyRate.displayable ? row.hourly_rate_idr : null;
}

/** The displayable minimum project budget in IDR, or null (pages and reports only). */
export function displayableMinBudget(row: ProviderRow): number | null {
  return commercialSignals(row).minProjectBudget.displayable ? row.min_project_budget_idr : null;
}

export function toProviderDetail(row: ProviderRow, categories: CategoryRef[]): ProviderDetail {
  const summary = toBusinessSummary(row);
  return {
    ...summary,
    description: row.description,
    website: row.website,
    categories,
    capabilityTags: jsonList(row.capability_tags),
    industryFocus: jsonList(row.industry_focus),
    languagesSupported: jsonList(row.languages_supported),
    avgHourlyRate: displayableHourlyRate(row),
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
    publicDataMeta: {
      ...summary.publicDataMeta,
      sourceType: row.source_type,
      sourcePrimaryUrl: row.source_primary_url,
      sourceAccessedAt: row.source_accessed_at,
    },
  };
}
