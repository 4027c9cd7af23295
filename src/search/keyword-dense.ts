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
import type { FilterSet } from '../query/filter-set.ts';
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
  touched = new Int32Array(1024);
  count = 0;

  /** the previous query's profiles back to 0 */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.held[this.touched[i]!] = 0;
    this.count = 0;
  }

  fit(rowid: number): void {
    if (rowid < this.sum.length) return;
    const n = Math.max(rowid + 1, this.sum.length * 2, 1024);
    const sum = new Float64Array(n);
    const held = new Int32Array(n);
    sum.set(this.sum);
    held.set(this.held);
    this.sum = sum;
    this.held = held;
  }

  add(r: number, value: number, bit: number): void {
    const h = this.held[r]!;
    if (h === 0) {
      this.sum[r] = value;
      this.held[r] = bit;
      if (this.count === this.touched.length) {
        const grown = new Int32Array(this.touched.length * 2);
        grown.set(this.touched);
        this.touched = grown;
      }
      this.touched[this.count++] = r;
      return;
    }
    this.sum[r]! += value;
    this.held[r] = h | bit;
  }
}

const acc = new Accumulator();

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
  acc.clear();
  for (let p = 0; p < parts.length; p++) {
    const c = parts[p]!;
    const bit = 1 << groupOf[p]!;
    if (c instanceof TermCursor) {
      const { rowids, impacts } = c.list;
      if (rowids.length === 0) continue;
      acc.fit(rowids[rowids.length - 1]!);
      for (let i = 0; i < rowids.length; i++) {
        const r = rowids[i]!;
        if (allowed !== null && allowed[r] !== 1) continue;
        acc.add(r, impacts[i]!, bit);
      }
      continue;
    }
    for (; c.doc < END; c.next()) {
      if (allowed !== null && allowed[c.doc] !== 1) continue;
      acc.fit(c.doc);
      acc.add(c.doc, c.score(), bit);
    }
  }
  const every = (1 << groups) - 1;
  const tier = new TopK(k);
  const rest = new TopK(allTopicsFirst ? k : 0);
  for (let i = 0; i < acc.count; i++) {
    const r = acc.touched[i]!;
    if (!allTopicsFirst || acc.held[r] === every) tier.push(acc.sum[r]!, r);
    else rest.push(acc.sum[r]!, r);
  }
  const first = tier.sorted().map((e) => e.id);
  if (first.length >= k) return first;
  return [...first, ...rest.sorted().slice(0, k - first.length).map((e) => e.id)];
}
