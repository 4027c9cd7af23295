/**
 * The columns search sorts and breaks ties by, for every published provider, in
 * typed arrays indexed by rowid: fusing a query's few hundred candidates reads
 * them here instead of a `rowid IN (json_each(...))` query per request. Read
 * once per snapshot from the partial indexes of published rows (the
 * published_providers rule), so `published[rowid]` is also the one test of whether
 * a candidate may be shown (tests/query/search-indexes.test.ts compares it with the view).
 */
import { float64Array, int32Array, uint8Array } from './shared-arrays.ts';
import type { Snapshot } from './snapshot.ts';

/** The largest provider rowid: the size of every per-rowid array. */
export function maxRowid(snapshot: Snapshot): number {
  return snapshot.memo('max-rowid', () => (snapshot.db.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0);
}

export interface PublishedColumns {
  /** 1 when the rowid is a published provider */
  published: Uint8Array;
  trust: Float64Array;
  rating: Float64Array;
  reviews: Float64Array;
  /** position in slug order (SQLite's BINARY order of the ASCII slugs, as `<` on strings) */
  slugRank: Int32Array;
}

// Read from the partial indexes over published rows (schema.sql: published_by_*,
// whose WHERE is the published_providers rule), each covering one column, and the
// slug index for the order: index entries only. Reading the view, in slug order or
// not, visited every provider row: 2.5-4 s at 1,000,000 providers.
const PUBLISHED = "submission_status = 'approved' AND published_at IS NOT NULL";
const COLUMN_SQL = {
  rating: `SELECT rowid, overall_rating FROM providers INDEXED BY published_by_rating WHERE ${PUBLISHED}`,
  trust: `SELECT rowid, trust_level FROM providers INDEXED BY published_by_trust WHERE ${PUBLISHED}`,
  reviews: `SELECT rowid, total_reviews FROM providers INDEXED BY published_by_reviews WHERE ${PUBLISHED}`,
} as const;
const SLUG_ORDER_SQL = 'SELECT rowid FROM providers ORDER BY slug';

export function publishedColumns(snapshot: Snapshot): PublishedColumns {
  return snapshot.memo('published-columns', () => {
    const n = maxRowid(snapshot) + 1;
    // in shared memory when search threads read them too (snapshot.searchingThreads)
    const threads = snapshot.searchingThreads;
    const columns: PublishedColumns = {
      published: uint8Array(n, threads),
      trust: float64Array(n, threads),
      rating: float64Array(n, threads),
      reviews: float64Array(n, threads),
      slugRank: int32Array(n, threads),
    };
    for (const [rowid, rating] of snapshot.prepare(COLUMN_SQL.rating).raw().iterate() as IterableIterator<[number, number]>) {
      columns.published[rowid] = 1;
      columns.rating[rowid] = rating;
    }
    for (const [rowid, trust] of snapshot.prepare(COLUMN_SQL.trust).raw().iterate() as IterableIterator<[number, number]>) columns.trust[rowid] = trust;
    for (const [rowid, reviews] of snapshot.prepare(COLUMN_SQL.reviews).raw().iterate() as IterableIterator<[number, number]>) columns.reviews[rowid] = reviews;
    let rank = 0;
    for (const rowid of snapshot.prepare<[], number>(SLUG_ORDER_SQL).pluck().iterate()) if (columns.published[rowid] === 1) columns.slugRank[rowid] = rank++;
    return columns;
  });
}
