/**
 * Public provider shapes: the one projection (toBusinessSummary) and the detail.
 * These schemas type the projections, validate nothing at run time (the snapshot
 * is trusted), and generate the OpenAPI document.
 */
import * as z from 'zod';

export const CurrencyClassSchema = z
  .enum(['IDR', 'NON_IDR', 'UNKNOWN'])
  .describe('IDR when the amount is in Rupiah; NON_IDR when another currency is known; UNKNOWN when none is');

export const EmployeeSignalSchema = z.object({
  available: z.boolean(),
  provenance: z.string().describe('who stated the value, e.g. provider_submitted; "none" when not available'),
  displayable: z.boolean().describe('true when the value may be shown'),
});

export const MoneySignalSchema = z.object({
  available: z.boolean(),
  provenance: z.string(),
  currency: CurrencyClassSchema,
  displayable: z.boolean().describe('false when not available or when the currency is not IDR'),
});

export const CommercialSignalsSchema = z.object({
  employeeCount: EmployeeSignalSchema,
  minProjectBudget: MoneySignalSchema,
  hourlyRate: MoneySignalSchema,
});

export const ProfileProvenanceSchema = z.enum(['provider_submitted', 'public_source']);

/** publicDataMeta on list items: the source fields may be omitted there (spec). */
export const PublicDataMetaSummarySchema = z.object({
  profileProvenance: ProfileProvenanceSchema,
  commercialSignals: CommercialSignalsSchema,
});

export const PublicDataMetaSchema = PublicDataMetaSummarySchema.extend({
  sourceType: z.string().nullable(),
  sourcePrimaryUrl: z.string().nullable(),
  sourceAccessedAt: z.string().nullable().describe('ISO 8601 timestamp'),
});
export type PublicDataMeta = z.output<typeof PublicDataMetaSchema>;

const decimal = (digits: number) =>
  z.string().regex(new RegExp(`^\\d+\\.\\d{${digits}}$`), `decimal with ${digits} fraction digits`);

/**
 * The rule for ratings (docs/interface.md, "Statistics"): a provider without reviews
 * has no rating. Its overallRating reads "0.00" and is never shown as a rating,
 * averaged, or put in a rating bucket; every reader asks this, not the rating.
 */
export const isRated = (totalReviews: number): boolean => totalReviews > 0;

/** toBusinessSummary: what every list, search result and comparison item carries. */
export const ProviderSummarySchema = z.object({
  id: z.string(),
  slug: z.string().describe('URL key of the provider'),
  companyName: z.string(),
  tagline: z.string(),
  city: z.string().nullable().describe('the name shown for the city (one spelling per citySlug)'),
  province: z.string().nullable().describe('the name shown for the province'),
  country: z.string().describe('ISO 3166-1 alpha-2 country code'),
  trustLevel: z.number().int().min(0).max(5).describe('0-5; discovery threshold is >= 1'),
  confidenceScore: decimal(3).describe('decimal string with 3 fraction digits, e.g. "0.870"'),
  overallRating: decimal(2).describe('decimal string with 2 fraction digits, e.g. "4.60"; "0.00" and no rating at all when totalReviews is 0'),
  totalReviews: z.number().int().min(0).describe('0: the provider has no rating yet'),
  publicDataMeta: PublicDataMetaSummarySchema,
});
export type ProviderSummary = z.output<typeof ProviderSummarySchema>;

export const CategoryRefSchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export type CategoryRef = z.output<typeof CategoryRefSchema>;

/** The detail: the summary plus the profile fields and the full publicDataMeta. */
export const ProviderDetailSchema = ProviderSummarySchema.extend({
  description: z.string(),
  website: z.string().nullable(),
  categories: z.array(CategoryRefSchema).describe('categories served, primary first'),
  capabilityTags: z.array(z.string()),
  industryFocus: z.array(z.string()),
  languagesSupported: z.array(z.string()),
  avgHourlyRate: z.number().nullable().describe('IDR per hour, or null unless the hourly rate is displayable'),
  publishedAt: z.string().describe('ISO 8601 timestamp'),
  updatedAt: z.string().nullable(),
  publicDataMeta: PublicDataMetaSchema,
});
export type ProviderDetail = z.output<typeof ProviderDetailSchema>;
