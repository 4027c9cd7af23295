/**
 * The vector side of hybrid search: KNN over vec_providers (published providers
 * only, rowid = providers.rowid). Filters apply inside the KNN through a
 * `rowid IN (...)` constraint, so the k nearest are taken among the providers that
 * pass the filters: a matching provider is never lost to truncation before
 * filtering.
 */
import type { FilterSql } from './filters.ts';
import type { Snapshot } from './snapshot.ts';

function vectorSql(filtered: boolean, filterWhere: string): string {
  return `
    -- vec0 KNN: the k nearest by cosine distance (vec0 allows only its own ORDER BY distance).
    SELECT v.rowid AS rowid, v.distance AS distance
    FROM vec_providers v
    WHERE v.embedding MATCH :vector
      AND k = :k
      ${filtered ? `AND v.rowid IN (SELECT p.rowid FROM published_providers p WHERE ${filterWhere})` : ''}`;
}

/** Rowids of the nearest providers among the filtered ones, nearest first. */
export function vectorCandidates(snapshot: Snapshot, vector: Float32Array | null, filter: FilterSql, window: number): number[] {
  if (vector === null) return [];
  const sql = vectorSql(filter.active, filter.where);
  const rows = snapshot
    .prepare<[Record<string, unknown>], { rowid: number; distance: number }>(sql)
    .all({ ...filter.params, vector, k: window });
  // Nearest first; rowid breaks distance ties so ranks are deterministic.
  rows.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
  return rows.map((r) => r.rowid);
}
