/**
 * The providers a filter lets through, as a bitmap over rowids and a sorted list,
 * computed once per distinct filter per snapshot (the filter SQL of filters.ts is
 * the only definition). Both sides of search test candidates against it while
 * ranking, so filters apply before ranking without a `rowid IN (subquery)` inside
 * the FTS or KNN query.
 */
import type { FilterSql } from './filters.ts';
import type { Snapshot } from './snapshot.ts';

export interface FilterSet {
  /** allowed[rowid] === 1 when the provider passes the filter */
  allowed: Uint8Array;
  /** the passing rowids, ascending */
  rowids: Int32Array;
}

/** Distinct filters kept per snapshot; city and category values are few, amounts may churn. */
const CACHE_LIMIT = 256;

function maxRowid(snapshot: Snapshot): number {
  return snapshot.memo('max-rowid', () => (snapshot.db.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0);
}

/** null when no filter applies (everything published passes). */
export function filterSet(snapshot: Snapshot, filter: FilterSql): FilterSet | null {
  if (!filter.active) return null;
  const cache = snapshot.memo('filter-sets', () => new Map<string, FilterSet>());
  const key = `${filter.where}\u0000${JSON.stringify(filter.params)}`;
  const hit = cache.get(key);
  if (hit) {
    // refresh its place: the map's order is least recently used first
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const rowids = Int32Array.from(
    snapshot
      .prepare<[Record<string, unknown>], number>(`SELECT p.rowid FROM published_providers p WHERE ${filter.where} ORDER BY p.rowid`)
      .pluck()
      .all(filter.params),
  );
  const allowed = new Uint8Array(maxRowid(snapshot) + 1);
  for (const r of rowids) allowed[r] = 1;
  const set = { allowed, rowids };
  cache.set(key, set);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return set;
}

export { maxRowid };
