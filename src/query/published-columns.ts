/**
 * The columns search sorts and breaks ties by, for every published provider, in
 * typed arrays indexed by rowid: fusing a query's few hundred candidates reads
 * them here instead of a `rowid IN (json_each(...))` query per request. Read
 * once per snapshot from the published_providers view, so `published[rowid]` is
 * also the one test of whether a candidate may be shown.
 */
import { maxRowid } from '../search/filter-set.ts';
import type { Snapshot } from './snapshot.ts';

export interface PublishedColumns {
  /** 1 when the rowid is a published provider */
  published: Uint8Array;
  trust: Float64Array;
  rating: Float64Array;
  reviews: Float64Array;
  /** position in slug order (SQLite's BINARY order of the ASCII slugs, as `<` on strings) */
  slugRank: Int32Array;
}

const COLUMNS_SQL = `
  SELECT p.rowid, p.trust_level, p.overall_rating, p.total_reviews
  FROM published_providers p
  ORDER BY p.slug`;

export function publishedColumns(snapshot: Snapshot): PublishedColumns {
  return snapshot.memo('published-columns', () => {
    const n = maxRowid(snapshot) + 1;
    const columns: PublishedColumns = {
      published: new Uint8Array(n),
      trust: new Float64Array(n),
      rating: new Float64Array(n),
      reviews: new Float64Array(n),
      slugRank: new Int32Array(n),
    };
    let rank = 0;
    for (const [rowid, trust, rating, reviews] of snapshot.prepare(COLUMNS_SQL).raw().iterate() as IterableIterator<[number, number, number, number]>) {
      columns.published[rowid] = 1;
      columns.trust[rowid] = trust;
      columns.rating[rowid] = rating;
      columns.reviews[rowid] = reviews;
      columns.slugRank[rowid] = rank++;
    }
    return columns;
  });
}
