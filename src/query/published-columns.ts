/**
 * The columns search sorts and breaks ties by, for every published provider, in
 * typed arrays indexed by rowid: fusing a query's few hundred candidates reads
 * them here instead of a `rowid IN (json_each(...))` query per request. Read
 * once per snapshot from search_columns, which the builder computes from the
 * partial indexes of published rows (the published_providers rule), so
 * `published[rowid]` is also the one test of whether a candidate may be shown
 * (tests/query/search-indexes.test.ts compares it with the view).
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

/** A column of search_columns (src/snapshot/search-columns.ts, written by the builder), copied into `into`. */
export function readSearchColumn<T extends Uint8Array | Int32Array | Float64Array>(snapshot: Snapshot, name: string, into: T): T {
  const data = snapshot.prepare<[string], Buffer>('SELECT data FROM search_columns WHERE name = ?').pluck().get(name);
  if (!data || data.byteLength !== into.byteLength) throw new Error(`search_columns.${name} is missing or not ${into.length} values long`);
  new Uint8Array(into.buffer, into.byteOffset, into.byteLength).set(data);
  return into;
}

export function publishedColumns(snapshot: Snapshot): PublishedColumns {
  return snapshot.memo('published-columns', () => {
    const n = maxRowid(snapshot) + 1;
    // in shared memory when search threads read them too (snapshot.searchingThreads)
    const threads = snapshot.searchingThreads;
    return {
      published: readSearchColumn(snapshot, 'published', uint8Array(n, threads)),
      trust: readSearchColumn(snapshot, 'trust', float64Array(n, threads)),
      rating: readSearchColumn(snapshot, 'rating', float64Array(n, threads)),
      reviews: readSearchColumn(snapshot, 'reviews', float64Array(n, threads)),
      slugRank: readSearchColumn(snapshot, 'slug_rank', int32Array(n, threads)),
    };
  });
}
