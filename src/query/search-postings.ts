/**
 * The keyword side over search_postings (src/snapshot/search-postings.ts): FTS5's
 * bm25 with each term's contributions precomputed and stored best first, so no
 * query scores the whole corpus and filters are a bitmap test (filter-set.ts).
 *
 * It evaluates the same expressions the FTS5 path runs (search-text.ts writes
 * them; match-expression.ts reads them back):
 *  - a group is an OR of alternatives; an alternative is a word, a word typed
 *    halfway (its expansions, most frequent first, at most MAX_EXPANSIONS) or a
 *    phrase, which here means all its words in the profile (co-occurrence, not
 *    adjacency: the postings keep no positions);
 *  - a profile's score is the sum of the contributions of the words it matched,
 *    as bm25 sums over phrases;
 *  - with query.matchAll, profiles matching every group rank first (the tiers of
 *    search-keyword.ts);
 *  - one plain word: walk its list in order and stop at `window` allowed rows.
 * Term lists are decoded once and kept (LRU) per snapshot; the score arrays are
 * reused (requests run one at a time on the event loop).
 */
import { filterSet, maxRowid } from './filter-set.ts';
import type { FilterSql } from './filters.ts';
import { parseMatchExpression, type Alternative } from './match-expression.ts';
import type { KeywordQuery } from './search-text.ts';
import type { Snapshot } from './snapshot.ts';
import { TopK } from './top-k.ts';

interface Postings {
  rowids: Int32Array;
  impacts: Float32Array;
}

const MAX_EXPANSIONS = 24;
const CACHED_TERMS = 4096;
/** Profiles matching every group outrank any partial match. */
const ALL_GROUPS_BONUS = 1e6;

export function hasSearchPostings(snapshot: Snapshot): boolean {
  return snapshot.memo('has-search-postings', () =>
    Boolean(snapshot.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_postings'").get()),
  );
}

function postings(snapshot: Snapshot, term: string): Postings | null {
  const cache = snapshot.memo('postings-cache', () => new Map<string, Postings | null>());
  const hit = cache.get(term);
  if (hit !== undefined) return hit;
  const row = snapshot
    .prepare<[string], { rowids: Buffer; impacts: Buffer }>('SELECT rowids, impacts FROM search_postings WHERE term = ?')
    .get(term);
  // Copied out of SQLite's buffer into aligned typed arrays.
  const value = row
    ? {
        rowids: new Int32Array(row.rowids.buffer.slice(row.rowids.byteOffset, row.rowids.byteOffset + row.rowids.byteLength)),
        impacts: new Float32Array(row.impacts.buffer.slice(row.impacts.byteOffset, row.impacts.byteOffset + row.impacts.byteLength)),
      }
    : null;
  cache.set(term, value);
  if (cache.size > CACHED_TERMS) cache.delete(cache.keys().next().value!);
  return value;
}

function expansions(snapshot: Snapshot, prefix: string): string[] {
  const cache = snapshot.memo('postings-expansions', () => new Map<string, string[]>());
  let terms = cache.get(prefix);
  if (!terms) {
    terms = snapshot
      .prepare<[string, string, number], string>('SELECT term FROM search_postings WHERE term >= ? AND term < ? ORDER BY df DESC, term LIMIT ?')
      .pluck()
      .all(prefix, `${prefix}\uffff`, MAX_EXPANSIONS);
    cache.set(prefix, terms);
    if (cache.size > CACHED_TERMS) cache.delete(cache.keys().next().value!);
  }
  return terms;
}

/** Posting lists of each word of an alternative (a prefix word: all its expansions). */
function wordLists(snapshot: Snapshot, alt: Alternative): Postings[][] {
  return alt.tokens.map((token, j) => {
    const terms = alt.prefix && j === alt.tokens.length - 1 ? expansions(snapshot, token) : [token];
    return terms.map((t) => postings(snapshot, t)).filter((p): p is Postings => p !== null && p.rowids.length > 0);
  });
}

interface Scratch {
  scores: Float64Array;
  groupMask: Int32Array;
  wordMask: Int32Array;
  partial: Float64Array;
  stamp: Int32Array;
  generation: number;
}

function scratch(snapshot: Snapshot): Scratch {
  return snapshot.memo('postings-scratch', () => {
    const n = maxRowid(snapshot) + 1;
    return { scores: new Float64Array(n), groupMask: new Int32Array(n), wordMask: new Int32Array(n), partial: new Float64Array(n), stamp: new Int32Array(n), generation: 0 };
  });
}

/**
 * Rowids of the best keyword matches among the filtered providers, best first;
 * null when the expression is not one this evaluator reads (the caller uses FTS5).
 */
export function postingsCandidates(snapshot: Snapshot, query: KeywordQuery, filter: FilterSql, window: number): number[] | null {
  if (query.match === null || window <= 0) return [];
  const groups = parseMatchExpression(query.match);
  if (!groups || groups.length > 30) return null;
  if (groups.some((g) => g.some((a) => a.tokens.length > 30))) return null;
  const allowed = filterSet(snapshot, filter)?.allowed;

  const only = groups.length === 1 && groups[0]!.length === 1 ? groups[0]![0]! : null;
  if (only && only.tokens.length === 1 && !only.prefix) {
    const list = postings(snapshot, only.tokens[0]!);
    const out: number[] = [];
    if (!list) return out;
    for (let j = 0; j < list.rowids.length && out.length < window; j++) {
      const r = list.rowids[j]!;
      if (!allowed || allowed[r] === 1) out.push(r);
    }
    return out;
  }

  const s = scratch(snapshot);
  const { scores, groupMask, wordMask, partial, stamp } = s;
  const touched: number[] = [];
  const add = (r: number, score: number, g: number) => {
    if (groupMask[r] === 0) touched.push(r);
    scores[r]! += score;
    groupMask[r]! |= 1 << g;
  };
  groups.forEach((group, g) => {
    for (const alt of group) {
      const lists = wordLists(snapshot, alt);
      if (lists.some((l) => l.length === 0)) continue; // a word no profile has: the phrase matches nothing
      if (lists.length === 1) {
        // one word (or its expansions): a profile counts each expansion it holds
        // (the hot loop of common words: written out, no call per posting)
        const bit = 1 << g;
        for (const { rowids, impacts } of lists[0]!) {
          for (let j = 0; j < rowids.length; j++) {
            const r = rowids[j]!;
            if (allowed && allowed[r] !== 1) continue;
            if (groupMask[r] === 0) touched.push(r);
            scores[r]! += impacts[j]!;
            groupMask[r]! |= bit;
          }
        }
        continue;
      }
      // a phrase: profiles holding every word, scored by the sum of the words' contributions
      const generation = ++s.generation;
      const full = (1 << lists.length) - 1;
      const seen: number[] = [];
      lists.forEach((wordPostings, w) => {
        for (const { rowids, impacts } of wordPostings) {
          for (let j = 0; j < rowids.length; j++) {
            const r = rowids[j]!;
            if (allowed && allowed[r] !== 1) continue;
            if (stamp[r] !== generation) {
              if (w > 0) continue; // missed an earlier word: cannot hold the phrase
              stamp[r] = generation;
              wordMask[r] = 0;
              partial[r] = 0;
              seen.push(r);
            }
            wordMask[r]! |= 1 << w;
            partial[r]! += impacts[j]!;
          }
        }
      });
      for (const r of seen) if (wordMask[r] === full) add(r, partial[r]!, g);
    }
  });

  const allGroups = (2 ** groups.length - 1) | 0;
  const tiered = Boolean(query.matchAll) && groups.length > 1;
  const top = new TopK(window);
  for (const r of touched) {
    top.push(scores[r]! + (tiered && groupMask[r] === allGroups ? ALL_GROUPS_BONUS : 0), r);
    scores[r] = 0;
    groupMask[r] = 0;
  }
  return top.sorted().map((e) => e.id);
}
