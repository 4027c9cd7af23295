/**
 * The providers a filter lets through, as a bitmap over rowids and a sorted list.
 * Both sides of search test candidates against it while ranking, so filters apply
 * before ranking without a `rowid IN (subquery)` in any query.
 *
 * Each clause of the filter (filters.ts, the only definition) is run once per
 * snapshot and kept; a filter of several clauses is the intersection of theirs.
 * One SQL pass per distinct combination (city x category x ...) cost 2-5 ms the
 * first time each was asked; the clauses are few, and the search warm-up
 * (src/search/warm.ts) computes every city's and category's between the first requests.
 */
import type { FilterClause, FilterSql } from './filters.ts';
import { maxRowid, publishedColumns } from './published-columns.ts';
import type { Snapshot } from './snapshot.ts';

export interface FilterSet {
  /** one bit per rowid, set when the provider passes the filter (read it with `allows`) */
  allowed: Uint32Array;
  /** the passing rowids, ascending */
  rowids: Int32Array;
}

/** Whether the set's bitmap lets the rowid through. */
export const allows = (allowed: Uint32Array, rowid: number): boolean => ((allowed[rowid >>> 5]! >>> (rowid & 31)) & 1) === 1;

/**
 * Bytes of filter sets kept per snapshot. A bitmap of 1,000,000 providers is 125 KB
 * beside the set's rowids (a byte per provider was 1 MB, and the 78 city and
 * category sets of the 1,000,000 benchmark filled the budget); the bitmap's words
 * also stay in the processor's cache while a search tests candidates against them.
 */
const CACHE_BYTES = 96 * 1024 * 1024;

const cacheOf = (snapshot: Snapshot) => snapshot.memo('filter-sets', () => snapshot.listCaches.create<FilterSet>('filter-sets', CACHE_BYTES));
const keyOf = (clauses: readonly FilterClause[]) => clauses.map((c) => `${c.sql}\u0000${JSON.stringify(c.params)}`).join('\u0001');

function remember(snapshot: Snapshot, key: string, set: FilterSet): FilterSet {
  cacheOf(snapshot).set(key, set, 64 + key.length * 2 + set.allowed.byteLength + set.rowids.byteLength);
  return set;
}

/** The set of the given ascending rowids, none above maxRowid. */
export function filterSetOf(rowids: Int32Array, maxRowid: number): FilterSet {
  const allowed = new Uint32Array((maxRowid >>> 5) + 1);
  for (let i = 0; i < rowids.length; i++) allowed[rowids[i]! >>> 5]! |= 1 << (rowids[i]! & 31);
  return { allowed, rowids };
}

const fromRowids = (snapshot: Snapshot, rowids: Int32Array) => filterSetOf(rowids, maxRowid(snapshot));

/**
 * The clause over every provider row, kept where the published bitmap allows: the
 * same rows as `FROM published_providers p WHERE clause`, but an index answers
 * alone (a city: the city index's entries; a category or a tag: its own rowid
 * query, clause.rowids), instead of a visit to each matching row to test the
 * published rule.
 */
function clauseSet(snapshot: Snapshot, clause: FilterClause): FilterSet {
  const key = keyOf([clause]);
  const hit = cacheOf(snapshot).get(key);
  if (hit) return hit;
  const { published } = publishedColumns(snapshot);
  const kept: number[] = [];
  // No ORDER BY: it made SQLite walk the whole table in rowid order instead of the clause's index.
  for (const r of snapshot
    .prepare<[Record<string, unknown>], number>(clause.rowids ?? `SELECT p.rowid FROM providers p WHERE ${clause.sql}`)
    .pluck()
    .iterate(clause.params)) {
    if (published[r] === 1) kept.push(r);
  }
  return remember(snapshot, key, fromRowids(snapshot, ascendingOnce(kept)));
}

/** The rowids sorted, each once (a rowid set's query may repeat one: a provider in a category and its child). */
function ascendingOnce(rowids: number[]): Int32Array {
  const sorted = Int32Array.from(rowids).sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (n === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i]!;
  // a copy when repeats were dropped: the cache counts the set's bytes, and the longer buffer would stay behind it
  return n === sorted.length ? sorted : sorted.slice(0, n);
}

/** null when no filter applies (everything published passes). */
export function filterSet(snapshot: Snapshot, filter: FilterSql): FilterSet | null {
  if (!filter.active) return null;
  if (filter.clauses.length === 1) return clauseSet(snapshot, filter.clauses[0]!);
  const key = keyOf(filter.clauses);
  const hit = cacheOf(snapshot).get(key);
  if (hit) return hit;
  // The smallest clause's rows, kept when every other clause allows them.
  const sets = filter.clauses.map((c) => clauseSet(snapshot, c)).sort((a, b) => a.rowids.length - b.rowids.length);
  const [smallest, ...others] = sets;
  const kept: number[] = [];
  for (const r of smallest!.rowids) if (others.every((o) => allows(o.allowed, r))) kept.push(r);
  return remember(snapshot, key, fromRowids(snapshot, Int32Array.from(kept)));
}

/** Computes the sets of the given clauses ahead of the first request that needs them. */
export function warmFilterClauses(snapshot: Snapshot, clauses: Iterable<FilterClause>): number {
  let n = 0;
  for (const clause of clauses) {
    clauseSet(snapshot, clause);
    n++;
  }
  return n;
}
