/**
 * The keyword side's posting lists, read from search_postings (written by
 * src/snapshot/search-postings.ts) on first use and kept per snapshot, bounded by
 * bytes: each term's published providers in rowid order with their bm25
 * contributions, plus what early termination needs: per block of BLOCK postings,
 * the block's last rowid and largest contribution (block-max bounds,
 * keyword-top-k.ts), stored beside the list by the builder, and the list's largest
 * contribution, the largest of its blocks'.
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
import { viewOf } from './blob-view.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { END } from './keyword-cursors.ts';
import { alternativeCursor } from './keyword-query-cursors.ts';
import { groupKey, type KeywordGroup } from './keyword-query.ts';
import { BLOCK, termPostingsOf, termPostingsWith, type PostingsSource, type TermPostings } from './posting-list.ts';

/** Most terms a prefix stands for: the most frequent ones. */
export const MAX_EXPANSIONS = 24;
/**
 * Bytes of term lists kept per snapshot: enough for every list of the benchmark's
 * 1,000,000 providers (431 MB). A long tail of queries asks for nearly every common
 * word's list in turn, and a cache too small for them churns: at 320 MB the lists
 * reloaded from SQLite cost 3% of search in process, and the evicted buffers wait
 * for a collection, so a smaller cache does not make a smaller process (with a
 * search thread, RSS after the 1M long-tail load: 1.35-1.67 GB at 320 MB,
 * 1.38-1.45 GB at 448, 1.9-2.5 GB with both caches at 224).
 * With search threads the lists are shared between them (src/query/list-caches.ts).
 */
const TERM_CACHE_BYTES = 448 * 1024 * 1024;
/**
 * Bytes of group lists kept per snapshot (a service group or a common word's prefix
 * at a million providers: 2-12 MB). A long tail of queries types many last words
 * as prefixes; at 160 MB the common ones were recomputed in turn.
 */
const GROUP_CACHE_BYTES = 320 * 1024 * 1024;

const EMPTY = termPostingsOf(new Int32Array(0), new Float32Array(0));

const TERM_SQL = 'SELECT rowids, impacts, block_last, block_max FROM search_postings WHERE term = ?';
const EXPANSIONS_SQL = 'SELECT term FROM search_postings WHERE term >= ? AND term < ? ORDER BY df DESC, term LIMIT ?';

interface TermRow {
  rowids: Buffer;
  impacts: Buffer;
  block_last: Buffer;
  block_max: Buffer;
}

/** A term's list; empty for a term no profile has. */
export function termPostings(snapshot: Snapshot, term: string): TermPostings {
  const cache = snapshot.memo('term-postings', () => snapshot.listCaches.create<TermPostings>('term-postings', TERM_CACHE_BYTES));
  const hit = cache.get(term);
  if (hit) return hit;
  const row = snapshot.prepare<[string], TermRow>(TERM_SQL).get(term);
  const list = row
    ? termPostingsWith(viewOf(row.rowids, Int32Array), viewOf(row.impacts, Float32Array), {
        blockLast: viewOf(row.block_last, Int32Array),
        blockMax: viewOf(row.block_max, Float64Array),
      })
    : EMPTY;
  cache.set(term, list, costOf(list));
  return list;
}

/** What a kept list costs its cache: the arrays, a block's two bounds (int32 and float64), and the object around them. */
const LIST_BYTES = 96;
const BLOCK_BOUND_BYTES = 12;
const costOf = (list: TermPostings) => LIST_BYTES + list.rowids.byteLength + list.impacts.byteLength + BLOCK_BOUND_BYTES * list.blockLast.length;

/** Share of the term lists' budget the warm-up fills before queries ask (the rest is for lists loaded on demand). */
const PRELOAD_SHARE = 0.9;
const PRELOAD_SQL = 'SELECT term, df FROM search_postings ORDER BY df DESC, term';

/**
 * The terms whose lists the warm-up loads before any query names them (warm.ts
 * listSteps), largest first, while their lists fit in PRELOAD_SHARE of the term
 * lists' budget: at 1,000,000 providers the 1,077 largest of 12,221 terms, 94% of
 * the postings (403 MB; the rest are small and quick to read). Loaded on first use
 * instead, the first queries to name a common word waited for it: at 1,000,000
 * providers a function word's 4 MB list took 2-8 ms from SQLite (a page read per
 * 4 KB, and the new memory's page faults), and the first pass over the
 * benchmark's 5,000 long-tail queries read a p99 of 16 ms where the second read 6.
 */
export function* preloadTerms(snapshot: Snapshot, budget = PRELOAD_SHARE * TERM_CACHE_BYTES): Generator<string> {
  let cost = 0;
  for (const { term, df } of snapshot.prepare<[], { term: string; df: number }>(PRELOAD_SQL).all()) {
    // what costOf will count for the list: an int32 rowid and a float32 impact a posting
    cost += LIST_BYTES + 8 * df + BLOCK_BOUND_BYTES * Math.ceil(df / BLOCK);
    if (cost > budget) return;
    yield term;
  }
}

/** Rowids per window of wordGroupList: its sums (128 KB) stay in the core's cache. */
const WINDOW = 1 << 14;

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
  /** wordGroupList's sums and which of them hold a value (all 0 between calls) */
  readonly window = new Float64Array(WINDOW);
  readonly windowHeld = new Uint8Array(WINDOW);

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
  // a single word's list is already the group's: its scores as they are
  if (words && words.length === 1) return source.term(words[0]!);
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
 * forms): the lists added up window by window of rowids into a window-sized array
 * of sums, read back in rowid order. A common prefix at 1,000,000 providers adds up
 * half a million postings from a dozen lists: sums spread over every rowid (12 MB)
 * cost a cache miss per posting, and a sort of the union cost more than the adding.
 * The largest list is added last, onto the sum of the others, so each profile
 * scores head + (the others in list order), the float64 additions of merging the
 * largest list with the union of the rest (addition commutes, so adding it onto the
 * sum is the same number). The loops are small functions of their
 * own: V8 compiles them whole, where loops nested in one function ran as
 * on-stack-replaced code that was thrown away at every exit of an inner loop.
 *
 * The profiles are counted first (the same pass, its sums dropped), so that the list
 * is written once into arrays of its length: new memory costs a page fault per 4 KB
 * when first written (18 us on the benchmark's virtual machine, 50 ns a posting),
 * and arrays sized for every posting and then copied to the list's length wrote
 * 2-3 times the list's bytes to new pages.
 */
function wordGroupList(lists: TermPostings[], scratch: GroupScratch): TermPostings {
  let head = 0;
  let largest = 0;
  for (let i = 0; i < lists.length; i++) {
    if (lists[i]!.rowids.length > lists[head]!.rowids.length) head = i;
    largest = Math.max(largest, lastOf(lists[i]!));
  }
  if (lists.length === 2) return mergeTwo(lists[1 - head]!, lists[head]!);
  const order = [...lists.filter((_, i) => i !== head), lists[head]!];
  const profiles = sweepWindows(order, largest, scratch, null);
  const out = { rowids: new Int32Array(profiles), scores: new Float64Array(profiles), n: 0 };
  sweepWindows(order, largest, scratch, out);
  return termPostingsOf(out.rowids, out.scores);
}

interface GroupOut {
  rowids: Int32Array;
  scores: Float64Array;
  n: number;
}

/** The lists added up a window of rowids at a time, each window's sums written to `out` in rowid order (without `out`, only counted); the profiles seen. */
function sweepWindows(order: TermPostings[], largest: number, scratch: GroupScratch, out: GroupOut | null): number {
  const { window: sums, windowHeld: held } = scratch;
  const at = new Int32Array(order.length);
  let profiles = 0;
  for (let base = 0; base <= largest; base += WINDOW) {
    const end = base + WINDOW;
    let low = WINDOW;
    let high = -1;
    for (let l = 0; l < order.length; l++) {
      const { rowids, impacts } = order[l]!;
      const from = at[l]!;
      if (from === rowids.length || rowids[from]! >= end) continue;
      const to = addToWindow(rowids, impacts, from, end, base, sums, held);
      low = Math.min(low, rowids[from]! - base);
      high = Math.max(high, rowids[to - 1]! - base);
      at[l] = to;
    }
    if (high >= 0) profiles += out ? drainWindow(sums, held, low, high, base, out) : clearWindow(held, low, high);
  }
  return profiles;
}

/** Two lists merged in one sequential pass (a word and its translation, most often), counted first like sweepWindows. */
function mergeTwo(other: TermPostings, largest: TermPostings): TermPostings {
  const { rowids: a, impacts: ai } = other;
  const { rowids: b, impacts: bi } = largest;
  let both = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (b[j]! < a[i]!) j++;
    else {
      both++;
      i++;
      j++;
    }
  }
  const rowids = new Int32Array(a.length + b.length - both);
  const scores = new Float64Array(rowids.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      rowids[n] = x;
      scores[n++] = ai[i++]!;
    } else if (y < x) {
      rowids[n] = y;
      scores[n++] = bi[j++]!;
    } else {
      rowids[n] = x;
      scores[n++] = bi[j++]! + ai[i++]!;
    }
  }
  for (; i < a.length; i++, n++) {
    rowids[n] = a[i]!;
    scores[n] = ai[i]!;
  }
  for (; j < b.length; j++, n++) {
    rowids[n] = b[j]!;
    scores[n] = bi[j]!;
  }
  return termPostingsOf(rowids, scores);
}

/** Adds a list's postings from `from` below rowid `end` to the window's sums; returns where it stopped. */
function addToWindow(rowids: Int32Array, impacts: TermPostings['impacts'], from: number, end: number, base: number, sums: Float64Array, held: Uint8Array): number {
  let i = from;
  for (; i < rowids.length && rowids[i]! < end; i++) {
    const j = rowids[i]! - base;
    if (held[j] === 0) {
      held[j] = 1;
      sums[j] = impacts[i]!;
    } else sums[j]! += impacts[i]!;
  }
  return i;
}

/** Moves the window's sums from `low` to `high` to the output in rowid order, leaving the window empty; how many. */
function drainWindow(sums: Float64Array, held: Uint8Array, low: number, high: number, base: number, out: GroupOut): number {
  const { rowids, scores } = out;
  const first = out.n;
  let n = first;
  for (let j = low; j <= high; j++) {
    if (held[j] === 0) continue;
    held[j] = 0;
    rowids[n] = base + j;
    scores[n++] = sums[j]!;
  }
  out.n = n;
  return n - first;
}

/** Empties the window from `low` to `high`; how many it held. */
function clearWindow(held: Uint8Array, low: number, high: number): number {
  let n = 0;
  for (let j = low; j <= high; j++) n += held[j]!;
  held.fill(0, low, high + 1);
  return n;
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
