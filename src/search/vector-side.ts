/**
 * The vector side of hybrid search: KNN over the published providers' vectors
 * (vector_partitions, rowid = providers.rowid). Filters apply during the scan (a
 * bitmap of the providers that pass, filter-set.ts), so the k nearest are taken
 * among the providers that pass the filters: a matching provider is never lost to
 * truncation before filtering.
 */
import { filterSet } from '../query/filter-set.ts';
import type { FilterSql } from '../query/filters.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { nearestRowids, vectorIndex } from './vector-index.ts';

/**
 * Rowids of the nearest providers among the filtered ones, nearest first. Served
 * from the in-memory IVF index (vector-index.ts): vec0's scan with `rowid IN
 * (filter)` cost 15-90 ms per query at 100,000 providers (issue 7). vec_providers
 * stays in the snapshot for analysts (docs/schema.md).
 */
export function vectorCandidates(snapshot: Snapshot, vector: Float32Array | null, filter: FilterSql, window: number): number[] {
  if (vector === null) return [];
  return nearestRowids(vectorIndex(snapshot), vector, filterSet(snapshot, filter), window);
}
