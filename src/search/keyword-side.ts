/**
 * The keyword side of hybrid search: bm25 over search_postings (FTS5's formula,
 * each term's contributions precomputed by the builder: src/snapshot/search-postings.ts),
 * filtered before ranking by the shared filter (a bitmap and a sorted list of the
 * allowed rowids, filter-set.ts), ranked by an early-terminating top-k
 * (keyword-top-k.ts) over cursors on the query's groups (keyword-cursors.ts).
 */
import { filterSet } from '../query/filter-set.ts';
import type { FilterSql } from '../query/filters.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { groupCursor } from './keyword-query-cursors.ts';
import type { KeywordQuery } from './keyword-query.ts';
import { topKeywordMatches } from './keyword-top-k.ts';
import { snapshotPostings } from './postings-store.ts';

/** Rowids of the best keyword matches among the filtered providers, best first. */
export function keywordCandidates(snapshot: Snapshot, query: KeywordQuery, filter: FilterSql, window: number): number[] {
  if (query.groups.length === 0 || window <= 0) return [];
  const source = snapshotPostings(snapshot);
  return topKeywordMatches(() => query.groups.map((g) => groupCursor(source, g)), {
    k: window,
    filter: filterSet(snapshot, filter),
    allTopicsFirst: query.allTopicsFirst,
  });
}
