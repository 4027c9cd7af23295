/**
 * The keyword side's posting lists, read from search_postings (written by
 * src/snapshot/search-postings.ts) on first use and kept per snapshot, bounded by
 * bytes: each term's published providers in rowid order with their bm25
 * contributions, plus what early termination needs, computed as the list is read:
 * the list's largest contribution and, per block of BLOCK postings, the block's
 * last rowid and largest contribution (block-max bounds, keyword-top-k.ts).
 *
 * A group of several alternatives (a service's dozen synonyms, a typo's
 * corrections, a prefix's expansions) is kept the same way, as one list of its
 * scores, computed from its cursor the first time a query has it: the bound of a
 * sum of a dozen lists is the sum of their maxima, far above what any profile
 * scores, so walked as a sum it would skip nothing. Each group is computed once
 * per snapshot (the service groups in the background after start, warm.ts), not
 * per query; a term list is loaded whole the first time a query names the term (a
 * million-provider list of a function word is 4 MB, read in about a millisecond).
 */
import { CostBoundedLru } from '../query/lru.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { alternativeCursor, END } from './keyword-cursors.ts';
import { groupKey, type KeywordGroup } from './keyword-query.ts';
import { termPostingsOf, type PostingsSource, type TermPostings } from './posting-list.ts';

/** Most terms a prefix stands for: the most frequent ones. */
export const MAX_EXPANSIONS = 24;
/**
 * Bytes of term lists kept per snapshot: at 1,000,000 providers every list takes
 * about 420 MB, the common words a few MB each; a long tail of queries keeps asking
 * for most common words, and 160 MB made them take turns being reloaded. With
 * search threads the lists are shared between them (src/query/list-caches.ts).
 */
const TERM_CACHE_BYTES = 320 * 1024 * 1024;
/**
 * Bytes of group lists kept per snapshot (a service group or a common word's prefix
 * at a million providers: 2-12 MB). A long tail of queries types many last words
 * as prefixes; at 160 MB the common ones were recomputed in turn.
 */
const GROUP_CACHE_BYTES = 320 * 1024 * 1024;

const EMPTY = termPostingsOf(new Int32Array(0), new Float32Array(0));

const TERM_SQL = 'SELECT rowids, impacts FROM search_postings WHERE term = ?';
const EXPANSIONS_SQL = 'SELECT term FROM search_postings WHERE term >= ? AND term < ? ORDER BY df DESC, term LIMIT ?';

/** A blob as 32-bit values: the Buffer's own memory when aligned (large blobs are), else a copy. */
const words32 = (b: Buffer): ArrayBuffer | { buffer: ArrayBufferLike; byteOffset: number; length: number } =>
  b.byteOffset % 4 === 0 ? { buffer: b.buffer, byteOffset: b.byteOffset, length: b.byteLength / 4 } : new Uint8Array(b).buffer;
const int32s = (b: Buffer) => {
  const w = words32(b);
  return w instanceof ArrayBuffer ? new Int32Array(w) : new Int32Array(w.buffer, w.byteOffset, w.length);
};
const float32s = (b: Buffer) => {
  const w = words32(b);
  return w instanceof ArrayBuffer ? new Float32Array(w) : new Float32Array(w.buffer, w.byteOffset, w.length);
};

/** A term's list; empty for a term no profile has. */
export function termPostings(snapshot: Snapshot, term: string): TermPostings {
  const cache = snapshot.memo('term-postings', () => snapshot.listCaches.create<TermPostings>('term-postings', TERM_CACHE_BYTES));
  const hit = cache.get(term);
  if (hit) return hit;
  const row = snapshot.prepare<[string], { rowids: Buffer; impacts: Buffer }>(TERM_SQL).get(term);
  const list = row ? termPostingsOf(int32s(row.rowids), float32s(row.impacts)) : EMPTY;
  cache.set(term, list, costOf(list));
  return list;
}

const costOf = (list: TermPostings) => 96 + list.rowids.byteLength + list.impacts.byteLength + 12 * list.blockLast.length;

/**
 * Dense per-rowid arrays for computing a group's list: each alternative's scores
 * are added into them (in the query's order, so a profile's sum is the one its
 * cursor would compute) instead of walking a sum of a dozen cursors profile by
 * profile. Grown to the largest rowid seen; one per snapshot (computations are
 * synchronous, so never shared).
 */
export class GroupScratch {
  group = new Float64Array(0);
  alt = new Float64Array(0);
  groupStamp = new Int32Array(0);
  altStamp = new Int32Array(0);
  generation = 0;

  fit(rowid: number): void {
    if (rowid < this.group.length) return;
    const n = Math.max(rowid + 1, this.group.length * 2, 1024);
    this.group = new Float64Array(n);
    this.alt = new Float64Array(n);
    this.groupStamp = new Int32Array(n);
    this.altStamp = new Int32Array(n);
    this.generation = 0;
  }
}

const lastOf = (list: TermPostings) => (list.rowids.length > 0 ? list.rowids[list.rowids.length - 1]! : 0);

/** A group's scores as one list: each profile it matches, with the weighted sum of the alternatives it holds. */
export function groupList(source: PostingsSource, group: KeywordGroup, scratch: GroupScratch): TermPostings {
  const words = group.alternatives.every((a) => a.weight === 1 && a.tokens.length === 1)
    ? group.alternatives.flatMap((a) => (a.prefix ? source.expansions(a.tokens[0]!) : a.tokens))
    : null;
  if (words && words.length > 1) return wordGroupList(words.map((w) => source.term(w)), scratch);
  // the arrays must hold every rowid before the first add
  for (const alt of group.alternatives)
    alt.tokens.forEach((t, i) => {
      const terms = alt.prefix && i === alt.tokens.length - 1 ? source.expansions(t) : [t];
      for (const term of terms) scratch.fit(lastOf(source.term(term)));
    });
  const gen = ++scratch.generation;
  const touched: number[] = [];
  let largest = 0;
  const addToGroup = (r: number, value: number) => {
    if (scratch.groupStamp[r] !== gen) {
      scratch.groupStamp[r] = gen;
      scratch.group[r] = 0;
      touched.push(r);
      if (r > largest) largest = r;
    }
    scratch.group[r]! += value;
  };
  for (const alt of group.alternatives) {
    const w = alt.weight;
    if (alt.tokens.length === 1) {
      // a word, or a prefix's expansions: added up per profile first, then weighted
      const lists = alt.prefix ? source.expansions(alt.tokens[0]!).map((t) => source.term(t)) : [source.term(alt.tokens[0]!)];
      if (!alt.prefix) {
        const { rowids, impacts } = lists[0]!;
        for (let i = 0; i < rowids.length; i++) addToGroup(rowids[i]!, w * impacts[i]!);
        continue;
      }
      const agen = ++scratch.generation;
      const seen: number[] = [];
      for (const { rowids, impacts } of lists) {
        for (let i = 0; i < rowids.length; i++) {
          const r = rowids[i]!;
          if (scratch.altStamp[r] !== agen) {
            scratch.altStamp[r] = agen;
            scratch.alt[r] = 0;
            seen.push(r);
          }
          scratch.alt[r]! += impacts[i]!;
        }
      }
      for (const r of seen) addToGroup(r, w * scratch.alt[r]!);
      continue;
    }
    // a phrase: its words' co-occurrence, walked by its cursor (led by the rarest word)
    const phrase = alternativeCursor(source, alt);
    for (; phrase.doc < END; phrase.next()) addToGroup(phrase.doc, w * phrase.score());
  }
  const rowids = new Int32Array(touched.length);
  if (touched.length * 16 > largest) {
    // dense: one pass over the stamps gives rowid order
    let n = 0;
    for (let r = 0; r <= largest; r++) if (scratch.groupStamp[r] === gen) rowids[n++] = r;
  } else {
    rowids.set(touched);
    rowids.sort();
  }
  const scores = new Float64Array(rowids.length);
  for (let i = 0; i < rowids.length; i++) scores[i] = scratch.group[rowids[i]!]!;
  return termPostingsOf(rowids, scores);
}

/**
 * A group of words at weight 1 (a prefix's expansions, a word and its dictionary
 * forms): the lists but the largest added up in the scratch arrays, then merged
 * with the largest in one sequential pass. A prefix of a common word at 1,000,000
 * providers is one list of 400,000 profiles and a few small ones; adding the large
 * one through the scratch arrays too cost tens of milliseconds per new prefix.
 * Every score is a sum of float32 contributions, exact in float64 in any order, so
 * each profile scores as adding every list in turn would.
 */
function wordGroupList(lists: TermPostings[], scratch: GroupScratch): TermPostings {
  let head = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i]!.rowids.length > lists[head]!.rowids.length) head = i;
  const rest = unionOf(
    lists.filter((_, i) => i !== head),
    scratch,
  );
  const { rowids: h, impacts: hi } = lists[head]!;
  const rowids = new Int32Array(h.length + rest.rowids.length);
  const scores = new Float64Array(rowids.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < h.length || j < rest.rowids.length) {
    const a = i < h.length ? h[i]! : END;
    const b = j < rest.rowids.length ? rest.rowids[j]! : END;
    rowids[n] = a < b ? a : b;
    scores[n++] = (a <= b ? hi[i++]! : 0) + (b <= a ? rest.scores[j++]! : 0);
  }
  return termPostingsOf(rowids.slice(0, n), scores.slice(0, n));
}

/** The profiles any of the lists holds, in rowid order, with the sum of their contributions. */
function unionOf(lists: TermPostings[], scratch: GroupScratch): { rowids: Int32Array; scores: Float64Array } {
  for (const list of lists) scratch.fit(lastOf(list));
  const gen = ++scratch.generation;
  const seen: number[] = [];
  for (const { rowids, impacts } of lists) {
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      if (scratch.altStamp[r] !== gen) {
        scratch.altStamp[r] = gen;
        scratch.alt[r] = 0;
        seen.push(r);
      }
      scratch.alt[r]! += impacts[i]!;
    }
  }
  const rowids = Int32Array.from(seen).sort();
  const scores = new Float64Array(rowids.length);
  for (let i = 0; i < rowids.length; i++) scores[i] = scratch.alt[rowids[i]!]!;
  return { rowids, scores };
}

/** A group's list, computed on first use and kept per snapshot. */
export function snapshotGroupList(snapshot: Snapshot, group: KeywordGroup): TermPostings {
  const cache = snapshot.memo('group-postings', () => snapshot.listCaches.create<TermPostings>('group-postings', GROUP_CACHE_BYTES));
  const key = groupKey(group);
  let list = cache.get(key);
  if (!list) {
    list = groupList(snapshotPostings(snapshot), group, snapshot.memo('group-scratch', () => new GroupScratch()));
    cache.set(key, list, costOf(list) + 2 * key.length);
  }
  return list;
}

/** The indexed terms a prefix stands for, most frequent first. */
export function expansions(snapshot: Snapshot, prefix: string): string[] {
  const cache = snapshot.memo('term-expansions', () => new CostBoundedLru<string, string[]>(4 * 1024 * 1024));
  let terms = cache.get(prefix);
  if (!terms) {
    terms = snapshot.prepare<[string, string, number], string>(EXPANSIONS_SQL).pluck().all(prefix, `${prefix}\uffff`, MAX_EXPANSIONS);
    cache.set(prefix, terms, 64 + terms.reduce((n, t) => n + 2 * t.length + 16, 0));
  }
  return terms;
}

export const snapshotPostings = (snapshot: Snapshot): PostingsSource =>
  snapshot.memo('postings-source', () => ({
    term: (t: string) => termPostings(snapshot, t),
    expansions: (p: string) => expansions(snapshot, p),
    group: (g: KeywordGroup) => snapshotGroupList(snapshot, g),
  }));
