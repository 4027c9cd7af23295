/**
 * The one filter builder. The provider list, the keyword side and the vector side
 * of search all filter with the SQL this returns, so a filter can never mean one
 * thing on the list and another in search.
 *
 * `where` is a boolean SQL expression over `p`, a row of published_providers, with
 * named parameters (`:f_city`, ...) bound from `params`. Values come from the parsed
 * FilterParams (src/schemas/api/params.ts); money columns of the snapshot hold
 * displayable IDR amounts only, so a filter never reads a hidden value.
 */
import type { FilterParams } from '../schemas/api/params.ts';
import { categoryFilterIds, categoryTree, usableCategory } from './categories.ts';
import type { Snapshot } from './snapshot.ts';

export interface FilterClause {
  sql: string;
  params: Record<string, string | number>;
  /**
   * For a clause that is a set of rowids (a category, a tag): a query of the same
   * rowids from that set's index alone, any order, repeats allowed (filter-set.ts).
   * `FROM providers p WHERE sql` looked every one up in providers: the 34 category
   * sets at 1,000,000 providers took 6.5 s, and 0.6 s from the index.
   */
  rowids?: string;
}

export interface FilterSql {
  /** SQL boolean expression over alias `p`; 'TRUE' when nothing filters. */
  where: string;
  params: Record<string, string | number>;
  /** True when at least one filter applies. */
  active: boolean;
  /** The same expression as its AND-ed clauses, each with its own parameters (filter-set.ts caches them one by one). */
  clauses: FilterClause[];
}

const TAG_ROWIDS = (kind: string, param: string) => `SELECT t.provider_rowid FROM provider_tags t WHERE t.kind = '${kind}' AND t.value_key = ${param}`;
const CATEGORY_ROWIDS = `SELECT pc.provider_rowid FROM provider_categories pc
                     WHERE pc.category_id IN (SELECT value FROM json_each(:f_category_ids))`;

/**
 * The API's filters, plus a set of cities for requests that name a region
 * ("Jabodetabek"): the AI endpoint reads it from the request text; no URL
 * parameter sets it.
 */
export type SearchFilters = FilterParams & { anyOfCities?: readonly string[] };

export function buildFilter(snapshot: Snapshot, f: SearchFilters): FilterSql {
  const clauses: FilterClause[] = [];
  const params: Record<string, string | number> = {};
  const add = (sql: string, values: Record<string, string | number> = {}, rowids?: string) => {
    clauses.push({ sql, params: values, ...(rowids === undefined ? {} : { rowids }) });
    Object.assign(params, values);
  };
  const addRowidSet = (rowids: string, values: Record<string, string | number>) => add(`p.rowid IN (${rowids})`, values, rowids);

  if (f.categorySlug !== undefined) {
    const tree = categoryTree(snapshot);
    const node = usableCategory(tree, f.categorySlug);
    // An unknown or inactive category matches nothing (it is a filter, not an error).
    if (!node) add('FALSE');
    else addRowidSet(CATEGORY_ROWIDS, { f_category_ids: JSON.stringify(categoryFilterIds(tree, node)) });
  }
  if (f.industry !== undefined) addRowidSet(TAG_ROWIDS('industry', ':f_industry'), { f_industry: f.industry.toLowerCase() });
  if (f.capabilityTag !== undefined) addRowidSet(TAG_ROWIDS('capability', ':f_capability'), { f_capability: f.capabilityTag.toLowerCase() });
  if (f.projectBudget !== undefined) add('p.min_project_budget_idr <= :f_budget', { f_budget: f.projectBudget });
  if (f.businessSize !== undefined) add('p.business_size = :f_size', { f_size: f.businessSize });
  if (f.hourlyRateMin !== undefined) add('p.hourly_rate_idr >= :f_rate_min', { f_rate_min: f.hourlyRateMin });
  if (f.hourlyRateMax !== undefined) add('p.hourly_rate_idr <= :f_rate_max', { f_rate_max: f.hourlyRateMax });
  if (f.minRating !== undefined) add('p.overall_rating >= :f_rating', { f_rating: f.minRating });
  if (f.minTrustLevel !== undefined) add('p.trust_level >= :f_trust', { f_trust: f.minTrustLevel });
  if (f.city !== undefined) add('p.city = :f_city COLLATE NOCASE', { f_city: f.city });
  if (f.anyOfCities !== undefined)
    add('p.city COLLATE NOCASE IN (SELECT value FROM json_each(:f_cities))', { f_cities: JSON.stringify(f.anyOfCities) });
  if (f.country !== undefined) add('p.country = :f_country COLLATE NOCASE', { f_country: f.country });
  if (f.location !== undefined)
    add(
      `(p.city = :f_location COLLATE NOCASE OR p.province = :f_location COLLATE NOCASE
        OR p.country = :f_location COLLATE NOCASE)`,
      { f_location: f.location },
    );

  return {
    where: clauses.length ? clauses.map((c) => c.sql).join('\n    AND ') : 'TRUE',
    params,
    active: clauses.length > 0,
    clauses,
  };
}
