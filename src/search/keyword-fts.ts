/**
 * The keyword side of hybrid search: FTS5 bm25 over fts_providers (published
 * providers only, rowid = providers.rowid), filtered BEFORE ranking by the shared
 * filter builder. Kept in one function so a speed pass can change how common
 * words are scored without touching fusion.
 */
import { KEYWORD_COLUMN_WEIGHTS } from '../snapshot/search-postings.ts';
import type { FilterSql } from '../query/filters.ts';
import { hasSearchPostings, postingsCandidates } from './keyword-side.ts';
import type { KeywordQuery } from './keyword-query.ts';
import type { Snapshot } from '../query/snapshot.ts';

/**
 * Column weights for bm25, one list for both paths (the builder precomputes the
 * postings' contributions with it): company_name, tagline, description,
 * capability_tags, industry_focus, category_names, city, province. A word in the
 * name or tagline says more about the service than the same word deep in a
 * description. (Other weightings moved the judged dev half's hybrid nDCG@10 by
 * under 0.005, so these stayed.)
 */
const BM25_WEIGHTS = KEYWORD_COLUMN_WEIGHTS.join(', ');

function keywordSql(filtered: boolean, filterWhere: string): string {
  return `
    -- bm25() is lower-is-better; rowid breaks ties so ranks are deterministic.
    SELECT f.rowid AS rowid
    FROM fts_providers f
    WHERE fts_providers MATCH :match
      ${filtered ? `AND f.rowid IN (SELECT p.rowid FROM published_providers p WHERE ${filterWhere})` : ''}
    ORDER BY bm25(fts_providers, ${BM25_WEIGHTS}), f.rowid
    LIMIT :window`;
}

function rankedMatches(snapshot: Snapshot, match: string, filter: FilterSql, window: number): number[] {
  const sql = keywordSql(filter.active, filter.where);
  const rows = snapshot
    .prepare<[Record<string, unknown>], { rowid: number }>(sql)
    .all({ ...filter.params, match, window });
  return rows.map((r) => r.rowid);
}

/**
 * Rowids of the best keyword matches among the filtered providers, best first.
 * With several topics, profiles matching all of them (query.matchAll) come first,
 * each tier in bm25 order: bm25 alone lets one frequent synonym outweigh a
 * second topic the profile lacks.
 */
export function keywordCandidates(snapshot: Snapshot, query: KeywordQuery, filter: FilterSql, window: number): number[] {
  if (query.match === null) return [];
  // Snapshots with search_postings answer without FTS5 (issue 7: bm25 over every
  // match of a common word, and `rowid IN (filter)` inside MATCH, cost 50 ms to seconds).
  if (hasSearchPostings(snapshot)) {
    const fast = postingsCandidates(snapshot, query, filter, window);
    if (fast) return fast;
  }
  if (!query.matchAll) return rankedMatches(snapshot, query.match, filter, window);
  const all = rankedMatches(snapshot, query.matchAll, filter, window);
  if (all.length >= window) return all;
  const seen = new Set(all);
  const some = rankedMatches(snapshot, query.match, filter, window + all.length).filter((rowid) => !seen.has(rowid));
  return [...all, ...some].slice(0, window);
}
