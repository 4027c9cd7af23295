/**
 * The keyword side's posting lists, read from search_postings (written by
 * src/snapshot/search-postings.ts) and kept per snapshot:
 *  - a term's list as stored: rowids best first with each one's bm25 contribution;
 *  - a prefix's expansions (the indexed terms it starts, most frequent first);
 *  - a group's list: one topic of the query (an OR of alternatives: words,
 *    prefixes, phrases) evaluated over the whole corpus once, a profile's score
 *    being the sum of the contributions of the words it matched (as bm25 sums over
 *    phrases). Service synonym groups expand to a dozen alternatives in two
 *    languages, several of them common words: evaluating them per query cost up
 *    to 60 ms at 100,000 providers (issue 7); cached, a query adds up a few lists.
 * Group lists are unfiltered (filters apply while a query adds them up), so one
 * entry serves every filter. The caches are bounded by bytes.
 */
import { CostBoundedLru } from '../query/lru.ts';
import type { Alternative, Group } from './match-expression.ts';
import { maxRowid } from './filter-set.ts';
import type { Snapshot } from '../query/snapshot.ts';

/** A posting list: rowids with their scores (order: see the function that made it). */
export interface ScoredList {
  rowids: Int32Array;
  scores: Float32Array | Float64Array;
}

/** Most terms a prefix stands for: the most frequent ones. */
export const MAX_EXPANSIONS = 24;
const TERM_CACHE_BYTES = 64 * 1024 * 1024;
const GROUP_CACHE_BYTES = 96 * 1024 * 1024;
const EMPTY: ScoredList = { rowids: new Int32Array(0), scores: new Float32Array(0) };

const TERM_SQL = 'SELECT rowids, impacts FROM search_postings WHERE term = ?';
const EXPANSIONS_SQL = 'SELECT term FROM search_postings WHERE term >= ? AND term < ? ORDER BY df DESC, term LIMIT ?';

/** A term's list, best first (as the builder stored it); empty for a term no profile has. */
export function termPostings(snapshot: Snapshot, term: string): ScoredList {
  const cache = snapshot.memo('term-postings', () => new CostBoundedLru<string, ScoredList>(TERM_CACHE_BYTES));
  const hit = cache.get(term);
  if (hit) return hit;
  const row = snapshot.prepare<[string], { rowids: Buffer; impacts: Buffer }>(TERM_SQL).get(term);
  // Copied out of SQLite's buffer into aligned typed arrays.
  const list = row
    ? {
        rowids: new Int32Array(row.rowids.buffer.slice(row.rowids.byteOffset, row.rowids.byteOffset + row.rowids.byteLength)),
        scores: new Float32Array(row.impacts.buffer.slice(row.impacts.byteOffset, row.impacts.byteOffset + row.impacts.byteLength)),
      }
    : EMPTY;
  cache.set(term, list, 64 + list.rowids.byteLength + list.scores.byteLength);
  return list;
}

export function expansions(snapshot: Snapshot, prefix: string): string[] {
  const cache = snapshot.memo('term-expansions', () => new CostBoundedLru<string, string[]>(4 * 1024 * 1024));
  let terms = cache.get(prefix);
  if (!terms) {
    terms = snapshot.prepare<[string, string, number], string>(EXPANSIONS_SQL).pluck().all(prefix, `${prefix}\uffff`, MAX_EXPANSIONS);
    cache.set(prefix, terms, 64 + terms.reduce((n, t) => n + 2 * t.length + 16, 0));
  }
  return terms;
}

/** One key per group whatever the order of its alternatives (a synonym group is written matched phrase first). */
export function groupKey(group: Group): string {
  return group
    .map((a) => `${a.tokens.join(' ')}${a.prefix ? '*' : ''}`)
    .sort()
    .join('|');
}

/** A single plain word: its stored list is the group's list, best first. */
export function singleTerm(group: Group): string | null {
  const only = group.length === 1 ? group[0]! : null;
  return only && only.tokens.length === 1 && !only.prefix ? only.tokens[0]! : null;
}

/** A group's list over the whole corpus, rowids ascending (a single word: its stored list, best first). */
export function groupPostings(snapshot: Snapshot, group: Group): ScoredList {
  const term = singleTerm(group);
  if (term !== null) return termPostings(snapshot, term);
  const cache = snapshot.memo('group-postings', () => new CostBoundedLru<string, ScoredList>(GROUP_CACHE_BYTES));
  const key = groupKey(group);
  const hit = cache.get(key);
  if (hit) return hit;
  const list = evaluateGroup(snapshot, group);
  cache.set(key, list, 64 + key.length * 2 + list.rowids.byteLength + list.scores.byteLength);
  return list;
}

/** Posting lists of each word of an alternative (a prefix word: all its expansions). */
function wordLists(snapshot: Snapshot, alt: Alternative): ScoredList[][] {
  return alt.tokens.map((token, j) => {
    const terms = alt.prefix && j === alt.tokens.length - 1 ? expansions(snapshot, token) : [token];
    return terms.map((t) => termPostings(snapshot, t)).filter((p) => p.rowids.length > 0);
  });
}

interface Scratch {
  group: Float64Array;
  groupStamp: Int32Array;
  phrase: Float64Array;
  phraseStamp: Int32Array;
  wordMask: Int32Array;
  generation: number;
}

function scratch(snapshot: Snapshot): Scratch {
  return snapshot.memo('group-scratch', () => {
    const n = maxRowid(snapshot) + 1;
    return {
      group: new Float64Array(n),
      groupStamp: new Int32Array(n),
      phrase: new Float64Array(n),
      phraseStamp: new Int32Array(n),
      wordMask: new Int32Array(n),
      generation: 0,
    };
  });
}

/**
 * Sum of the contributions of every alternative a profile matches. A phrase means
 * all its words in the profile (co-occurrence: the postings keep no positions) and
 * scores the sum of its words' contributions; a prefix word counts each expansion
 * the profile holds. Synchronous, so the scratch arrays are never shared.
 */
function evaluateGroup(snapshot: Snapshot, group: Group): ScoredList {
  const s = scratch(snapshot);
  const { group: score, groupStamp, phrase, phraseStamp, wordMask } = s;
  const gen = ++s.generation;
  const touched: number[] = [];
  for (const alt of group) {
    const lists = wordLists(snapshot, alt);
    if (lists.some((l) => l.length === 0)) continue; // a word no profile has: the phrase matches nothing
    if (lists.length === 1) {
      for (const { rowids, scores } of lists[0]!) {
        for (let j = 0; j < rowids.length; j++) {
          const r = rowids[j]!;
          if (groupStamp[r] !== gen) {
            groupStamp[r] = gen;
            score[r] = 0;
            touched.push(r);
          }
          score[r]! += scores[j]!;
        }
      }
      continue;
    }
    // a phrase: profiles holding every word (the rarest word first keeps `seen` small)
    const order = lists.map((l, w) => ({ w, n: l.reduce((n, p) => n + p.rowids.length, 0) })).sort((a, b) => a.n - b.n);
    const pgen = ++s.generation;
    const full = (1 << lists.length) - 1;
    const seen: number[] = [];
    order.forEach(({ w }, step) => {
      const bit = 1 << w;
      for (const { rowids, scores } of lists[w]!) {
        for (let j = 0; j < rowids.length; j++) {
          const r = rowids[j]!;
          if (phraseStamp[r] !== pgen) {
            if (step > 0) continue; // missed a rarer word: cannot hold the phrase
            phraseStamp[r] = pgen;
            wordMask[r] = 0;
            phrase[r] = 0;
            seen.push(r);
          }
          wordMask[r]! |= bit;
          phrase[r]! += scores[j]!;
        }
      }
    });
    for (const r of seen) {
      if (wordMask[r] !== full) continue;
      if (groupStamp[r] !== gen) {
        groupStamp[r] = gen;
        score[r] = 0;
        touched.push(r);
      }
      score[r]! += phrase[r]!;
    }
  }
  const rowids = Int32Array.from(touched).sort();
  const scores = new Float64Array(rowids.length);
  for (let i = 0; i < rowids.length; i++) scores[i] = score[rowids[i]!]!;
  return { rowids, scores };
}
