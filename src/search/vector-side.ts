/**
 * The vector side of hybrid search: KNN over the published providers' vectors
 * (vec_providers, rowid = providers.rowid). Filters apply during the scan (a
 * bitmap of the providers that pass, filter-set.ts), so the k nearest are taken
 * among the providers that pass the filters: a matching provider is never lost to
 * truncation before filtering.
 */
import { filterSet } from './filter-set.ts';
import type { FilterSql } from '../query/filters.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { nearestRowids, vectorIndex } from './vector-index.ts';

function vectorSql(filtered: boolean, filterWhere: string): string {
  return `
    -- vec0 KNN: the k nearest by cosine distance (vec0 allows only its own ORDER BY distance).
    SELECT v.rowid AS rowid, v.distance AS distance
    FROM vec_providers v
    WHERE v.embedding MATCH :vector
      AND k = :k
      ${filtered ? `AND v.rowid IN (SELECT p.rowid FROM published_providers p WHERE ${filterWhere})` : ''}`;
}

/**
 * Rowids of the nearest providers among the filtered ones, nearest first. Served
 * from the in-memory IVF index (vector-index.ts): the vec0 scan above cost 15-90 ms
 * per query at 100,000 providers (issue 7); vectorSql stays as the reference the
 * benchmark's exact recall check mirrors.
 */
export function vectorCandidates(snapshot: Snapshot, vector: Float32Array | null, filter: FilterSql, window: number): number[] {
  if (vector === null) return [];
  return nearestRowids(vectorIndex(snapshot), vector, filterSet(snapshot, filter), window);
}

/** The same through vec0 (exact KNN in SQLite): kept for comparison and small snapshots' tests. */
export function vectorCandidatesVec0(snapshot: Snapshot, vector: Float32Array | null, filter: FilterSql, window: number): number[] {
  if (vector === null) return [];
  const sql = vectorSql(filter.active, filter.where);
  const rows = snapshot
    .prepare<[Record<string, unknown>], { rowid: number; distance: number }>(sql)
    .all({ ...filter.params, vector, k: window });
  // Nearest first; rowid breaks distance ties so ranks are deterministic.
  rows.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
  return rows.map((r) => r.rowid);
}
