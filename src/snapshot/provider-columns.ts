/**
 * A validated provider record -> the column values of providers,
 * provider_commercial_raw and provider_tags. The displayable rules of docs/interface.md
 * ("Who may see what") are applied here, once: a money column holds an amount only when it is
 * available and in IDR, so no reader can use a hidden value by accident.
 */
import { citySlug } from '../text/city-slug.ts';
import type { Money, ProviderRecord } from '../schemas/dataset.ts';
import { isRated } from '../schemas/provider.ts';

export type CurrencyClass = 'IDR' | 'NON_IDR' | 'UNKNOWN';
export type BusinessSize = 'micro' | 'small' | 'medium' | 'large';

export function currencyClass(money: Money | null): CurrencyClass | null {
  if (money === null) return null;
  if (money.currency === null) return 'UNKNOWN';
  return money.currency === 'IDR' ? 'IDR' : 'NON_IDR';
}

/** The amount when it may be shown (available and IDR), else null. */
export function displayableIdr(money: Money | null): number | null {
  return currencyClass(money) === 'IDR' ? money!.amount : null;
}

/** "11-50" -> [11, 50]; "201+" -> [201, null]; "5" -> [5, 5]. */
export function employeeRange(value: string): { min: number; max: number | null } {
  const open = /^(\d+)\+$/.exec(value);
  if (open) return { min: Number(open[1]), max: null };
  const range = /^(\d+)-(\d+)$/.exec(value);
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    return { min: Math.min(a, b), max: Math.max(a, b) };
  }
  const n = Number(value);
  return { min: n, max: n };
}

/**
 * Business size by the range's lower bound (docs/interface.md: micro 1-10, small 11-50,
 * medium 51-200, large 201+). The lower bound is what the provider can promise:
 * "40-60" is small, "180-250" medium, "0" micro.
 */
export function businessSize(min: number): BusinessSize {
  if (min <= 10) return 'micro';
  if (min <= 50) return 'small';
  if (min <= 200) return 'medium';
  return 'large';
}

export interface ProviderColumns {
  id: string;
  slug: string;
  company_name: string;
  tagline: string;
  description: string;
  website: string | null;
  city: string | null;
  city_slug: string | null;
  /** the name shown for the city: its spelling until writePlaceNames (place-names.ts) names every place */
  city_name: string | null;
  province: string | null;
  province_name: string | null;
  country: string;
  primary_category_id: string | null;
  trust_level: number;
  confidence_score: number;
  overall_rating: number;
  total_reviews: number;
  capability_tags: string;
  industry_focus: string;
  languages_supported: string;
  employee_available: number;
  employee_provenance: string | null;
  employee_min: number | null;
  employee_max: number | null;
  business_size: BusinessSize | null;
  budget_available: number;
  budget_provenance: string | null;
  budget_currency_class: CurrencyClass | null;
  min_project_budget_idr: number | null;
  rate_available: number;
  rate_provenance: string | null;
  rate_currency_class: CurrencyClass | null;
  hourly_rate_idr: number | null;
  profile_provenance: string;
  source_type: string | null;
  source_primary_url: string | null;
  source_accessed_at: string | null;
  submission_status: string;
  published_at: string | null;
  updated_at: string | null;
}

export function providerColumns(p: ProviderRecord): ProviderColumns {
  const employees = p.employeeCount ? employeeRange(p.employeeCount.value) : null;
  const slugOfCity = p.city === null ? null : citySlug(p.city);
  return {
    id: p.id,
    slug: p.slug,
    company_name: p.companyName,
    tagline: p.tagline,
    description: p.description,
    website: p.website,
    city: p.city,
    city_slug: slugOfCity === '' ? null : slugOfCity,
    city_name: p.city,
    province: p.province,
    province_name: p.province,
    country: p.country,
    primary_category_id: p.categoryIds[0] ?? null,
    trust_level: p.trustLevel,
    confidence_score: p.confidenceScore,
    // No reviews, no rating (docs/interface.md, "Statistics"): whatever the record says, it is stored as 0.
    overall_rating: isRated(p.totalReviews) ? p.overallRating : 0,
    total_reviews: p.totalReviews,
    capability_tags: JSON.stringify(p.capabilityTags),
    industry_focus: JSON.stringify(p.industryFocus),
    languages_supported: JSON.stringify(p.languagesSupported),
    employee_available: employees ? 1 : 0,
    employee_provenance: p.employeeCount?.provenance ?? null,
    employee_min: employees?.min ?? null,
    employee_max: employees?.max ?? null,
    business_size: employees ? businessSize(employees.min) : null,
    budget_available: p.minProjectBudget ? 1 : 0,
    budget_provenance: p.minProjectBudget?.provenance ?? null,
    budget_currency_class: currencyClass(p.minProjectBudget),
    min_project_budget_idr: displayableIdr(p.minProjectBudget),
    rate_available: p.hourlyRate ? 1 : 0,
    rate_provenance: p.hourlyRate?.provenance ?? null,
    rate_currency_class: currencyClass(p.hourlyRate),
    hourly_rate_idr: displayableIdr(p.hourlyRate),
    profile_provenance: p.profileProvenance,
    source_type: p.sourceType,
    source_primary_url: p.sourcePrimaryUrl,
    source_accessed_at: p.sourceAccessedAt,
    submission_status: p.submissionStatus,
    published_at: p.publishedAt,
    updated_at: p.updatedAt,
  };
}

/** The published rule, as the published_providers view states it (for the builder's FTS and vector passes). */
export function isPublished(p: Pick<ProviderRecord, 'submissionStatus' | 'publishedAt'>): boolean {
  return p.submissionStatus === 'approved' && p.publishedAt !== null;
}

export interface TagRow {
  kind: 'capability' | 'industry' | 'language';
  value: string;
  value_key: string;
}

/** One row per distinct (kind, lower-cased value); the first spelling wins. */
export function providerTags(p: ProviderRecord): TagRow[] {
  const rows: TagRow[] = [];
  const seen = new Set<string>();
  const add = (kind: TagRow['kind'], values: string[]) => {
    for (const value of values) {
      const value_key = value.toLowerCase(); // as src/query/filters.ts lowers a filter value
      if (seen.has(kind + '\0' + value_key)) continue;
      seen.add(kind + '\0' + value_key);
      rows.push({ kind, value, value_key });
    }
  };
  add('capability', p.capabilityTags);
  add('industry', p.industryFocus);
  add('language', p.languagesSupported);
  return rows;
}
