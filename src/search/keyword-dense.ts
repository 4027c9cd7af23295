/**
 * The keyword top-k by accumulation (term at a time), for queries whose lists are
 * short enough: each list, in the query's order, is added into a dense per-rowid
 * sum in a tight loop over its arrays, with a bit per group held; then every
 * profile touched is offered to a top-k heap (two with the all-topics tier).
 *
 * Why: walked document at a time (keyword-top-k.ts), a sentence of several
 * common words visits each profile of their union with a dozen polymorphic cursor
 * calls, and with a window of 150 the bounds prune little: the k-th best stays
 * low and the block windows (the smallest block of several lists) are short. Added
 * up, a posting costs an array read and an add, so at 100,000 providers (lists of
 * at most a few tens of thousands) summing every list is cheaper than skipping
 * some. Long lists (a function word at 1,000,000) keep the walk, whose bounds skip
 * them.
 *
 * Same ranking: a profile's sum gets its groups' contributions in the query's
 * order, starting from 0, as the walk's sum does (the same floating-point number);
 * the heap orders by score, then rowid, whatever the order profiles are offered.
 */
import { allows, type FilterSet } from '../query/filter-set.ts';
import { END, TermCursor, type Cursor } from './keyword-cursors.ts';
import { TopK } from './top-k.ts';

/**
 * Most postings a query's lists may hold together for the accumulation: above it
 * the walk's skipping pays (the sum costs a few ns a posting, a walked visit
 * 50-100 ns, but the walk skips most of a long list worth little).
 */
export const ACCUMULATE_MAX_POSTINGS = 100_000;
/**
 * Largest rowid space for it: the per-rowid arrays (12 bytes a rowid) stay in the
 * CPU's caches. At 1,000,000 providers every add was a cache miss and the walk
 * was as fast for the queries under the postings limit (paired runs: p50 1.79 ->
 * 1.88-2.05 ms with the accumulation, keyword side alone).
 */
export const ACCUMULATE_MAX_ROWID = 262_144;

/**
 * Per-rowid sums and group bits, reused across queries (searches are synchronous):
 * a profile is new to the query while its bits are 0 (every add sets one), and
 * the touched ones are cleared after each query, so a posting costs two array
 * reads, not three.
 */
class Accumulator {
  sum = new Float64Array(0);
  held = new Int32Array(0);
  touched = new Int32Array(0);
  count = 0;

  /** Room for rowids up to `rowid` and `postings` new profiles; the previous query's back to 0. */
  start(rowid: number, postings: number): void {
    for (let i = 0; i < this.count; i++) this.held[this.touched[i]!] = 0;
    this.count = 0;
    if (postings > this.touched.length) this.touched = new Int32Array(Math.max(postings, 2 * this.touched.length));
    if (rowid < this.sum.length) return;
    const n = Math.max(rowid + 1, 2 * this.sum.length);
    this.sum = new Float64Array(n);
    this.held = new Int32Array(n);
  }

  /** One list's contributions, in a tight loop. */
  add(rowids: Int32Array, impacts: Float32Array | Float64Array, bit: number, allowed: Uint32Array | null): void {
    const { sum, held, touched } = this;
    let count = this.count;
    for (let i = 0; i < rowids.length; i++) {
      const r = rowids[i]!;
      if (allowed !== null && !allows(allowed, r)) continue;
      const h = held[r]!;
      if (h === 0) {
        sum[r] = impacts[i]!;
        held[r] = bit;
        touched[count++] = r;
      } else {
        sum[r]! += impacts[i]!;
        held[r] = h | bit;
      }
    }
    this.count = count;
  }
}

// This thread's scratch memory, not a cache: no value in it outlives the query that
// wrote it (start() clears what the previous one touched), so snapshots, hot swaps and
// tests never see each other's sums; only the arrays' room is kept (at most 262,144 rowids).
const acc = new Accumulator();

/** A cursor's profiles and scores as arrays (a phrase, when a test asks for the accumulation). */
function listOf(c: Cursor): { rowids: Int32Array; impacts: Float32Array | Float64Array } {
  if (c instanceof TermCursor) return c.list;
  const rowids: number[] = [];
  const scores: number[] = [];
  for (; c.doc < END; c.next()) {
    rowids.push(c.doc);
    scores.push(c.score());
  }
  return { rowids: Int32Array.from(rowids), impacts: Float64Array.from(scores) };
}

/**
 * Whether the query's lists are plain, few and short enough to add up (at most 30
 * groups: one bit each). A phrase's profiles are not known before it is walked.
 */
export function accumulates(parts: Cursor[], groups: number): boolean {
  if (groups > 30) return false;
  let postings = 0;
  for (const p of parts) {
    if (!(p instanceof TermCursor)) return false;
    const { rowids } = p.list;
    postings += rowids.length;
    if (rowids.length > 0 && rowids[rowids.length - 1]! > ACCUMULATE_MAX_ROWID) return false;
  }
  return postings <= ACCUMULATE_MAX_POSTINGS;
}

/**
 * The k best, as the walk ranks them. `parts`: the lists in query order (a split
 * group's parts as lists of their own), `groupOf`: the group of each.
 */
export function accumulatedTopK(parts: Cursor[], groupOf: number[], groups: number, k: number, filter: FilterSet | null, allTopicsFirst: boolean): number[] {
  const allowed = filter?.allowed ?? null;
  const lists = parts.map(listOf);
  let postings = 0;
  let last = 0;
  for (const { rowids } of lists) {
    postings += rowids.length;
    if (rowids.length > 0) last = Math.max(last, rowids[rowids.length - 1]!);
  }
  acc.start(last, postings);
  for (let p = 0; p < lists.length; p++) acc.add(lists[p]!.rowids, lists[p]!.impacts, 1 << groupOf[p]!, allowed);
  const every = (1 << groups) - 1;
  const tier = new TopK(k);
  const rest = new TopK(k);
  const { sum, held, touched, count } = acc;
  // a profile below a full heap's k-th best is not offered (a tie is: push decides by rowid)
  let tierBar = -Infinity;
  let restBar = -Infinity;
  for (let i = 0; i < count; i++) {
    const r = touched[i]!;
    const s = sum[r]!;
    if (!allTopicsFirst || held[r] === every) {
      if (s < tierBar) continue;
      tier.push(s, r);
      tierBar = tier.threshold;
    } else {
      if (s < restBar) continue;
      rest.push(s, r);
      restBar = rest.threshold;
    }
  }
  const first = tier.ids();
  if (first.length >= k) return first;
  return [...first, ...rest.ids().slice(0, k - first.length)];
}
