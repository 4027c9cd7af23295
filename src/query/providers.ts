/**
 * The provider list (without `q`) and the provider detail. Both read the
 * published_providers view only and shape rows through the one projection.
 */
import type { FilterParams } from '../schemas/api/params.ts';
import type { ProviderDetail, ProviderSummary } from '../schemas/provider.ts';
import { providerCategories } from './categories.ts';
import { filterSet } from './filter-set.ts';
import { buildFilter } from './filters.ts';
import { toBusinessSummary, toProviderDetail } from './projections.ts';
import { SUMMARY_COLUMNS, type ProviderRow, type SummaryRow } from './provider-row.ts';
import type { Snapshot } from './snapshot.ts';

export type ListSort = 'rating' | 'trust' | 'reviews';

/** Each sort key, then slug: every list has a deterministic order (docs/interface.md). */
export const ORDER_BY: Record<ListSort, string> = {
  rating: 'p.overall_rating DESC, p.slug ASC',
  trust: 'p.trust_level DESC, p.slug ASC',
  reviews: 'p.total_reviews DESC, p.slug ASC',
};

export interface Page<T> {
  data: T[];
  total: number;
  totalPages: number;
}

export const totalPages = (total: number, limit: number) => Math.ceil(total / limit);

/** One page of the list; unfiltered, it walks a published_by_* index (schema.sql). */
export const listPageSql = (where: string, sort: ListSort) => `
    SELECT p.* FROM published_providers p
    WHERE ${where}
    ORDER BY ${ORDER_BY[sort]}
    LIMIT :limit OFFSET :offset`;

export function listProviders(
  snapshot: Snapshot,
  filters: FilterParams,
  opts: { sort: ListSort; page: number; limit: number },
): Page<ProviderSummary> {
  const filter = buildFilter(snapshot, filters);
  // The count comes from the cached filter set (or a per-snapshot memo): counting
  // 100,000 rows on every page request cost more than the page itself (issue 7).
  const total = filter.active
    ? (filterSet(snapshot, filter)?.rowids.length ?? 0)
    : snapshot.memo('published-count', () =>
        snapshot.prepare<[], { n: number }>('SELECT count(*) AS n FROM published_providers p').get()?.n ?? 0,
      );
  const offset = (opts.page - 1) * opts.limit;
  if (offset >= total) return { data: [], total, totalPages: totalPages(total, opts.limit) };
  const rows = snapshot
    .prepare<[Record<string, unknown>], ProviderRow>(listPageSql(filter.where, opts.sort))
    .all({ ...filter.params, limit: opts.limit, offset });
  return { data: rows.map(toBusinessSummary), total, totalPages: totalPages(total, opts.limit) };
}

const BY_SLUG_SQL = 'SELECT p.* FROM published_providers p WHERE p.slug = ?';

/** A published provider's row by slug, or undefined (unknown and unpublished look the same). */
export function publishedRowBySlug(snapshot: Snapshot, slug: string): ProviderRow | undefined {
  return snapshot.prepare<[string], ProviderRow>(BY_SLUG_SQL).get(slug);
}

export function providerDetail(snapshot: Snapshot, slug: string): ProviderDetail | undefined {
  const row = publishedRowBySlug(snapshot, slug);
  return row ? toProviderDetail(row, providerCategories(snapshot, row.rowid)) : undefined;
}

// published_summaries (schema.sql) holds SUMMARY_COLUMNS of the published rows: 20 rows at random
// at 100,000 providers took 44 us instead of 83 from the view (mostly page cache hits, not reads).
const SUMMARY_ROWS_SQL = `
  SELECT ${SUMMARY_COLUMNS.join(', ')} FROM published_summaries
  WHERE rowid IN (SELECT value FROM json_each(?))`;

/** Published rows' summary columns for the given rowids, keyed by rowid (order is the caller's). */
export function publishedSummaryRows(snapshot: Snapshot, rowids: number[]): Map<number, SummaryRow> {
  if (rowids.length === 0) return new Map();
  const rows = snapshot.prepare<[string], SummaryRow>(SUMMARY_ROWS_SQL).all(JSON.stringify(rowids));
  return new Map(rows.map((r) => [r.rowid, r]));
}
