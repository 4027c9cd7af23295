/**
 * A row of the published_providers view, as the query modules select it (`SELECT p.*`):
 * the columns the builder writes (src/snapshot/provider-columns.ts), plus the rowid,
 * with the published rule's guarantee that published_at is set.
 */
import type { ProviderColumns } from '../snapshot/provider-columns.ts';

export interface ProviderRow extends Omit<ProviderColumns, 'published_at' | 'profile_provenance'> {
  rowid: number;
  published_at: string;
  profile_provenance: 'provider_submitted' | 'public_source';
}

/**
 * The columns a summary is made of (toBusinessSummary), for the readers that show
 * only summaries of rows they pick by rowid: a search's page of hits, the landing
 * lists. The description and the JSON lists were a third of the read (20 rows of a
 * search page at 100,000 providers: 120 us with every column, 85 us with these).
 */
export const SUMMARY_COLUMNS = [
  'rowid',
  'id',
  'slug',
  'company_name',
  'tagline',
  'city_name',
  'province_name',
  'country',
  'trust_level',
  'confidence_score',
  'overall_rating',
  'total_reviews',
  'profile_provenance',
  'employee_available',
  'employee_provenance',
  'budget_available',
  'budget_provenance',
  'budget_currency_class',
  'rate_available',
  'rate_provenance',
  'rate_currency_class',
] as const satisfies readonly (keyof ProviderRow)[];

export type SummaryRow = Pick<ProviderRow, (typeof SUMMARY_COLUMNS)[number]>;
