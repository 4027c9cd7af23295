/**
 * The keyword side over search_postings (src/snapshot/search-postings.ts): FTS5's
 * bm25 with each term's contributions precomputed, so no query scores the whole
 * corpus with bm25() and filters are a bitmap test (filter-set.ts).
 *
 * It evaluates the same expressions the FTS5 path runs (search-text.ts writes
 * them; match-expression.ts reads them back). Each group (one topic of the query)
 * is a list over the whole corpus, evaluated once per snapshot (postings-store.ts);
 * a query adds its groups' lists up among the allowed providers:
 *  - a profile's score is the sum of its groups' scores;
 *  - with query.matchAll, profiles matching every group rank first (the tiers of
 *    search-keyword.ts);
 *  - one plain word: walk its best-first list and stop at `window` allowed rows.
 * The score arrays are reused (requests run one at a time on the event loop).
 */
import { filterSet, maxRowid } from './filter-set.ts';
import type { FilterSql } from '../query/filters.ts';
import { parseMatchExpression } from './match-expression.ts';
import { groupPostings, singleTerm, termPostings } from './postings-store.ts';
import type { KeywordQuery } from './keyword-query.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { TopK } from './top-k.ts';

/** Profiles matching every group outrank any partial match. */
const ALL_GROUPS_BONUS = 1e6;
/** Group masks are 32-bit. */
const MAX_GROUPS = 30;

export function hasSearchPostings(snapshot: Snapshot): boolean {
  return snapshot.memo('has-search-postings', () =>
    Boolean(snapshot.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_postings'").get()),
  );
}

interface Scratch {
  scores: Float64Array;
  groupMask: Int32Array;
  touched: Int32Array;
}

function scratch(snapshot: Snapshot): Scratch {
  return snapshot.memo('keyword-sum-scratch', () => {
    const n = maxRowid(snapshot) + 1;
    return { scores: new Float64Array(n), groupMask: new Int32Array(n), touched: new Int32Array(n) };
  });
}

/**
 * Rowids of the best keyword matches among the filtered providers, best first;
 * null when the expression is not one this evaluator reads (the caller uses FTS5).
 */
export function postingsCandidates(snapshot: Snapshot, query: KeywordQuery, filter: FilterSql, window: number): number[] | null {
  if (query.match === null || window <= 0) return [];
  const groups = parseMatchExpression(query.match);
  if (!groups || groups.length > MAX_GROUPS) return null;
  if (groups.some((g) => g.some((a) => a.tokens.length > 30))) return null;
  const allowed = filterSet(snapshot, filter)?.allowed;

  const term = groups.length === 1 ? singleTerm(groups[0]!) : null;
  if (term !== null) {
    // best first: the first `window` allowed rows are the answer
    const { rowids } = termPostings(snapshot, term);
    const out: number[] = [];
    for (let j = 0; j < rowids.length && out.length < window; j++) {
      const r = rowids[j]!;
      if (!allowed || allowed[r] === 1) out.push(r);
    }
    return out;
  }

  const lists = groups.map((g) => groupPostings(snapshot, g));
  const top = new TopK(window);
  if (lists.length === 1) {
    const { rowids, scores } = lists[0]!;
    for (let j = 0; j < rowids.length; j++) {
      const r = rowids[j]!;
      if (!allowed || allowed[r] === 1) top.push(scores[j]!, r);
    }
    return top.sorted().map((e) => e.id);
  }

  const { scores, groupMask, touched } = scratch(snapshot);
  let count = 0;
  for (let g = 0; g < lists.length; g++) {
    const { rowids, scores: add } = lists[g]!;
    const bit = 1 << g;
    for (let j = 0; j < rowids.length; j++) {
      const r = rowids[j]!;
      if (allowed && allowed[r] !== 1) continue;
      if (groupMask[r] === 0) touched[count++] = r;
      scores[r]! += add[j]!;
      groupMask[r]! |= bit;
    }
  }
  const allGroups = (2 ** groups.length - 1) | 0;
  const tiered = Boolean(query.matchAll);
  for (let i = 0; i < count; i++) {
    const r = touched[i]!;
    top.push(scores[r]! + (tiered && groupMask[r] === allGroups ? ALL_GROUPS_BONUS : 0), r);
    scores[r] = 0;
    groupMask[r] = 0;
  }
  return top.sorted().map((e) => e.id);
}
