/**
 * The keyword top-k by accumulation (term at a time): each list, in the query's
 * order, is added into per-rowid sums with a bit per group held, a tile of rowids
 * at a time; then every profile touched in the tile is offered to a top-k heap (two
 * with the all-topics tier).
 *
 * Why: walked document at a time (keyword-top-k.ts), a profile costs a dozen
 * polymorphic cursor calls (50-100 ns), and the walk pays only when its bounds skip
 * most postings: a rare list leading, common ones looked up. When the lists are
 * alike in length (a sentence of common words, a query of function words only such
 * as "di kami" or "for dengan"), the k-th best of a window of 150 stays below each
 * list's maximum and nearly every posting of their union is visited: 15-23 ms at
 * 1,000,000 providers. Added up, a posting costs an array read and an add (about
 * 8 ns), so such queries and short ones are summed.
 *
 * Tiles: sums over every rowid (12 bytes a rowid) missed the CPU's caches at
 * 1,000,000 providers on every add; a tile's arrays (TILE rowids) stay in them.
 *
 * The tier alone: once the all-topics tier holds k profiles, the rest can no
 * longer be part of the answer, and every profile of the tier holds the query's
 * rarest group; each later tile adds up only the profiles that group holds and
 * reads them through its postings (addTierTile). At 1,000,000 providers (keyword
 * side, the 5,000 long-tail queries, six pairs, run in turn, same answers) the
 * mean went from 2.42-3.20 to 1.88-2.46 ms and the p90 from 5.8-7.8 to 4.1-5.4 ms;
 * 100,000 providers (a few tiles) did not move.
 *
 * Looked-up lists (MaxScore, term at a time): once a heap is full, the groups whose
 * maxima add up to less than its k-th best cannot bring a profile in alone, so in
 * the following tiles only the other lists propose profiles and those lists only
 * add to them, without a branch (LookedUpGroups, addProposedTile). A sentence of
 * common words beside a rare one reads the common lists instead of adding them:
 * at 1,000,000 providers (keyword side, the 5,000 long-tail queries, interleaved,
 * same answers) the total went 9.8 -> 8.9 s and the p99 11.6 -> 7.9 ms, sentences'
 * p95 12.4 -> 7.1 ms; at 100,000 the total 1.31 -> 1.21 s.
 *
 * Same ranking: a profile's sum gets its groups' contributions in the query's
 * order, starting from 0, as the walk's sum does (the same floating-point number);
 * the heap orders by score, then rowid, whatever the order profiles are offered.
 */
import { allows, type FilterSet } from '../query/filter-set.ts';
import { cannotReach } from './keyword-bounds.ts';
import { END, TermCursor, type Cursor } from './keyword-cursors.ts';
import { termPostingsOf, type TermPostings } from './posting-list.ts';
import { TopK } from './top-k.ts';

/**
 * Most postings a query's lists may hold together to be summed whatever their
 * lengths: above it the walk's skipping pays when one list is much shorter than
 * another (the sum costs a few ns a posting, a walked visit 50-100 ns, but the walk
 * skips most of a long list worth little).
 */
export const ACCUMULATE_MAX_POSTINGS = 100_000;
/**
 * Lists are alike in length when the shortest holds at least this share of the
 * longest: summed whatever their size. Measured on 2,000 long-tail queries at
 * 1,000,000 providers (keyword side, interleaved runs): 0.05 took the mean from
 * 2.76-2.84 to 2.28-2.49 ms and the p50 from 1.99-2.06 to 1.40-1.51 ms; summing
 * every plain query did about as well on the mean but worse at 100,000.
 */
const ALIKE_LENGTHS = 0.05;

/**
 * Lists from which a query is summed whatever their lengths: the walk's bound on a
 * profile is the sum of the maxima of the lists it may still be in, and with this
 * many (a sentence of common words beside a rare one: "mulai 2019 pt rajawali works
 * mengerjakan proyek website korporat") it stays above the 150th best for most
 * postings, so the walk visits nearly all of them. Keyword side on the long-tail mix,
 * interleaved runs, same answers: 1,000,000 providers (2,000 queries) mean 2.60-3.86 ->
 * 2.36-2.93 ms, p99 15.6-21.1 -> 12.3-14.8 ms; 100,000 (3,000) mean 0.35-0.41 ->
 * 0.29-0.31 ms. 4 and 5 measured alike at 1,000,000 and no better at 100,000.
 */
const MANY_LISTS = 6;

/** Rowids summed at a time: a tile's sums, bits and touched rowids (16 bytes a rowid, 512 KB) stay in the CPU's caches. */
export const TILE = 32_768;

/**
 * One posting into a tile (offset `o`); returns the touched count. Without a branch
 * on whether the profile is new (half of a second list's are, unpredictably): its
 * sum starts from 0 (0 + x is x), and its offset is written every time but counted
 * only then (about 30% faster at 1,000,000 providers).
 */
function addPosting(sum: Float64Array, held: Int32Array, touched: Int32Array, count: number, o: number, impact: number, bit: number): number {
  const h = held[o]!;
  const fresh = h === 0 ? 1 : 0;
  sum[o] = (fresh === 1 ? 0 : sum[o]!) + impact;
  held[o] = h | bit;
  touched[count] = o;
  return count + fresh;
}

/**
 * One tile's sums and group bits, reused across tiles and queries (searches are
 * synchronous): a profile is new to the tile while its bits are 0 (every add sets
 * one), and the touched ones are cleared after each tile, so a posting costs two
 * array reads, not three.
 */
class TileSums {
  readonly sum = new Float64Array(TILE);
  readonly held = new Int32Array(TILE);
  /** offsets in the tile, first touch order (one more slot: addPosting writes an offset before it knows whether it is new) */
  readonly touched = new Int32Array(TILE + 1);
  /** 1 at the offsets of the tier's possible profiles (addMarked) */
  readonly marked = new Uint8Array(TILE);
  count = 0;

  /** The postings of one list from position `from` on with rowids below base + TILE; returns where it stopped. */
  add(rowids: Int32Array, impacts: Float32Array | Float64Array, from: number, base: number, bit: number, allowed: Uint32Array | null): number {
    const { sum, held, touched } = this;
    const end = base + TILE;
    let count = this.count;
    let i = from;
    // Unfiltered lists get a loop of their own: with the filter's test inside, even
    // when null, the loop ran 40% slower.
    if (allowed === null) {
      for (; i < rowids.length; i++) {
        const r = rowids[i]!;
        if (r >= end) break;
        count = addPosting(sum, held, touched, count, r - base, impacts[i]!, bit);
      }
    } else {
      for (; i < rowids.length; i++) {
        const r = rowids[i]!;
        if (r >= end) break;
        if (allows(allowed, r)) count = addPosting(sum, held, touched, count, r - base, impacts[i]!, bit);
      }
    }
    this.count = count;
    return i;
  }

  /**
   * add() for the profiles set in `marked` alone (their sums zeroed when marked),
   * without recording the touched offsets: for a tile whose profiles are read through
   * the lists that propose them. Without a branch: an unmarked profile gets 0 added
   * (x + 0 is x) and no bit. Marked profiles are often half a tile, where the branch
   * was mispredicted at every other posting.
   */
  addMarked(rowids: Int32Array, impacts: Float32Array | Float64Array, from: number, base: number, bit: number): number {
    const { sum, held, marked } = this;
    const end = base + TILE;
    let i = from;
    for (; i < rowids.length; i++) {
      const r = rowids[i]!;
      if (r >= end) break;
      const o = r - base;
      const m = marked[o]!;
      sum[o] = sum[o]! + m * impacts[i]!;
      held[o] = held[o]! | (-m & bit);
    }
    return i;
  }

  /** Back to no profile touched when the touched offsets were not recorded: a memset of the bits, cheaper than a write per profile once most of a tile was touched. */
  clearHeld(): void {
    this.held.fill(0);
    this.marked.fill(0);
  }

  /** Marks offset `o` for addMarked (its sum zeroed); false when it was marked already. */
  mark(o: number): boolean {
    if (this.marked[o] === 1) return false;
    this.marked[o] = 1;
    this.sum[o] = 0;
    return true;
  }

  /** Back to no profile touched after addProposedTile: its touched offsets are the marked ones. */
  clearProposed(): void {
    const { held, marked, touched } = this;
    for (let i = 0; i < this.count; i++) {
      const o = touched[i]!;
      held[o] = 0;
      marked[o] = 0;
    }
    this.count = 0;
  }

  /** Back to no profile touched. */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.held[this.touched[i]!] = 0;
    this.count = 0;
  }
}

// This thread's scratch memory, not a cache: no value in it outlives the tile that
// wrote it (clear() after each), so snapshots, hot swaps and tests never see each
// other's sums.
const tile = new TileSums();

/** A cursor's profiles and scores as arrays (a phrase, when a test asks for the accumulation). */
function listOf(c: Cursor): TermPostings {
  if (c instanceof TermCursor) return c.list;
  const rowids: number[] = [];
  const scores: number[] = [];
  for (; c.doc < END; c.next()) {
    rowids.push(c.doc);
    scores.push(c.score());
  }
  return termPostingsOf(Int32Array.from(rowids), Float64Array.from(scores));
}

/**
 * Whether the query's lists are plain (at most 30 groups: one bit each; a phrase's
 * profiles are not known before it is walked) and either few and short, alike in
 * length or many (ACCUMULATE_MAX_POSTINGS, ALIKE_LENGTHS, MANY_LISTS).
 */
export function accumulates(parts: Cursor[], groups: number): boolean {
  if (groups > 30) return false;
  let postings = 0;
  let longest = 0;
  let shortest = Infinity;
  for (const p of parts) {
    if (!(p instanceof TermCursor)) return false;
    const n = p.list.rowids.length;
    postings += n;
    longest = Math.max(longest, n);
    shortest = Math.min(shortest, n);
  }
  return postings <= ACCUMULATE_MAX_POSTINGS || shortest >= ALIKE_LENGTHS * longest || parts.length >= MANY_LISTS;
}

/**
 * The k best, as the walk ranks them. `parts`: the lists in query order (a split
 * group's parts as lists of their own), `groupOf`: the group of each.
 */
export function accumulatedTopK(parts: Cursor[], groupOf: number[], groups: number, k: number, filter: FilterSet | null, allTopicsFirst: boolean): number[] {
  const allowed = filter?.allowed ?? null;
  const lists = parts.map(listOf);
  const at = new Int32Array(lists.length);
  const every = (1 << groups) - 1;
  const tier = new TopK(k);
  const rest = new TopK(k);
  // a profile below a full heap's k-th best is not offered (a tie is: push decides by rowid)
  let tierBar = -Infinity;
  let restBar = -Infinity;
  const { sum, held, touched } = tile;
  const groupPostings = new Array<number>(groups).fill(0);
  lists.forEach((l, p) => (groupPostings[groupOf[p]!]! += l.rowids.length));
  const rarest = groupPostings.indexOf(Math.min(...groupPostings));
  const lookedUp = new LookedUpGroups(lists, groupOf, groups, allTopicsFirst ? rarest : -1);
  for (;;) {
    // the tile of the smallest rowid not yet added
    let next = END;
    for (let p = 0; p < lists.length; p++) if (at[p]! < lists[p]!.rowids.length) next = Math.min(next, lists[p]!.rowids[at[p]!]!);
    if (next === END) break;
    const base = next - (next % TILE);
    if (allTopicsFirst && tier.size === k) {
      // The answer is the tier's k best: the rest is no longer offered.
      addTierTile(lists, groupOf, rarest, every, at, base, allowed, tier);
      tierBar = tier.threshold;
      continue;
    }
    // A profile outside the tier enters only past the heap it would join.
    const looked = lookedUp.below(allTopicsFirst ? restBar : tierBar);
    if (looked === DONE) break;
    if (looked === null) {
      for (let p = 0; p < lists.length; p++) at[p] = tile.add(lists[p]!.rowids, lists[p]!.impacts, at[p]!, base, 1 << groupOf[p]!, allowed);
    } else {
      addProposedTile(lists, groupOf, looked, at, base, allowed);
    }
    for (let i = 0; i < tile.count; i++) {
      const o = touched[i]!;
      const s = sum[o]!;
      if (!allTopicsFirst || held[o] === every) {
        if (s < tierBar) continue;
        tier.push(s, base + o);
        tierBar = tier.threshold;
      } else {
        if (s < restBar) continue;
        rest.push(s, base + o);
        restBar = rest.threshold;
      }
    }
    if (looked === null) tile.clear();
    else tile.clearProposed();
  }
  const first = tier.ids();
  if (first.length >= k) return first;
  return [...first, ...rest.ids().slice(0, k - first.length)];
}

/**
 * One tile, offered to the tier alone: every profile of the tier holds the rarest
 * group, so only the profiles its lists hold (and the filter allows) are marked
 * and added up, the tier is read through that group's postings, and the tile is
 * cleared with one memset instead of a write per touched profile.
 */
function addTierTile(lists: TermPostings[], groupOf: number[], rarest: number, every: number, at: Int32Array, base: number, allowed: Uint32Array | null, tier: TopK): void {
  const { sum, held } = tile;
  const end = base + TILE;
  const from = Int32Array.from(at);
  for (let p = 0; p < lists.length; p++) {
    if (groupOf[p] !== rarest) continue;
    const { rowids } = lists[p]!;
    for (let i = at[p]!; i < rowids.length && rowids[i]! < end; i++) if (allowed === null || allows(allowed, rowids[i]!)) tile.mark(rowids[i]! - base);
  }
  for (let p = 0; p < lists.length; p++) at[p] = tile.addMarked(lists[p]!.rowids, lists[p]!.impacts, at[p]!, base, 1 << groupOf[p]!);
  for (let p = 0; p < lists.length; p++) {
    if (groupOf[p] !== rarest) continue;
    const { rowids } = lists[p]!;
    for (let i = from[p]!; i < at[p]!; i++) {
      const o = rowids[i]! - base;
      if (held[o] !== every) continue;
      held[o] = 0; // offered once, though the group's other lists hold it too
      const s = sum[o]!;
      if (s < tier.threshold) continue;
      tier.push(s, base + o);
    }
  }
  tile.clearHeld();
}

/** below(): no profile of a later tile can enter the answer any more. */
const DONE = 0;

/**
 * MaxScore for the accumulation: the groups whose bounds (the sum of their lists'
 * maxima) add up to less than the bar a new profile must pass cannot bring a profile
 * in by themselves, so their lists only add to the profiles the other lists propose
 * (addProposedTile). A sentence of common words beside a rare one is the case: once
 * the first tiles fill the heap, the common words' long lists are read, not added.
 */
class LookedUpGroups {
  private readonly lists: TermPostings[];
  private readonly groupOf: number[];
  private readonly bounds: number[];
  /** groups by bound, smallest first */
  private readonly order: number[];
  /** a group that always proposes (-1: none): the tier's rarest, whose lists every tier profile is in */
  private readonly keep: number;
  private bar = -Infinity;
  private looked: Uint8Array | null | typeof DONE = null;

  constructor(lists: TermPostings[], groupOf: number[], groups: number, keep: number) {
    this.lists = lists;
    this.groupOf = groupOf;
    this.keep = keep;
    this.bounds = new Array<number>(groups).fill(0);
    lists.forEach((l, p) => (this.bounds[groupOf[p]!]! += l.max));
    this.order = this.bounds.map((_, g) => g).sort((a, b) => this.bounds[a]! - this.bounds[b]!);
  }

  /** Per list, 1 when it is only looked up below `bar`; null when every list proposes; DONE when none does. */
  below(bar: number): Uint8Array | null | typeof DONE {
    if (bar === this.bar) return this.looked;
    this.bar = bar;
    const lookedUp = new Uint8Array(this.bounds.length);
    let bound = 0;
    let proposing = this.bounds.length;
    for (const g of this.order) {
      if (g === this.keep) continue;
      if (!cannotReach(bound + this.bounds[g]!, bar)) break;
      bound += this.bounds[g]!;
      lookedUp[g] = 1;
      proposing--;
    }
    if (proposing === this.bounds.length) this.looked = null;
    else if (proposing === 0) this.looked = DONE;
    else this.looked = Uint8Array.from(this.lists, (_, p) => lookedUp[this.groupOf[p]!]!);
    return this.looked;
  }
}

/**
 * One tile where only some lists propose profiles: theirs (that the filter allows)
 * are marked, then every list, in the query's order (the same sums as add()), adds
 * to the marked profiles alone (addMarked): a looked-up list's postings are read,
 * with nothing new recorded.
 */
function addProposedTile(lists: TermPostings[], groupOf: number[], looked: Uint8Array, at: Int32Array, base: number, allowed: Uint32Array | null): void {
  const { touched } = tile;
  const end = base + TILE;
  let count = 0;
  for (let p = 0; p < lists.length; p++) {
    if (looked[p] === 1) continue;
    const { rowids } = lists[p]!;
    for (let i = at[p]!; i < rowids.length; i++) {
      const r = rowids[i]!;
      if (r >= end) break;
      if (allowed !== null && !allows(allowed, r)) continue;
      const o = r - base;
      if (tile.mark(o)) touched[count++] = o;
    }
  }
  for (let p = 0; p < lists.length; p++) at[p] = tile.addMarked(lists[p]!.rowids, lists[p]!.impacts, at[p]!, base, 1 << groupOf[p]!);
  tile.count = count;
}
