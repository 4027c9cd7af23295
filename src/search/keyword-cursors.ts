/**
 * Cursors over posting lists in rowid order: the keyword side walks a query's
 * groups with these instead of building a list per group (keyword-top-k.ts).
 *
 *  - TermCursor: one term's list;
 *  - SumCursor: the profiles any child matches, scoring the weighted sum of the
 *    children that match (a group's alternatives; a prefix's expansions);
 *  - PartsCursor: a group split in two lists (its longest word's, the rest's).
 * A query's cursors are put together from these in keyword-query-cursors.ts.
 * Each gives an upper bound of its score overall (`max`) and over the block of
 * rowids ahead (`shallow`), which lets the top-k skip what cannot enter. Scores are
 * summed in the query's order (groups, alternatives, words, expansions), so the
 * same profile always gets the same floating-point score.
 */
import type { TermPostings } from './posting-list.ts';

/** Past the last rowid. */
export const END = 0x7fffffff;

export interface Cursor {
  /** the current rowid, END when exhausted */
  doc: number;
  /** an upper bound of score() anywhere */
  readonly max: number;
  /** about how many rowids it may stop at (to pick the cheapest driver) */
  readonly cost: number;
  next(): void;
  /** to the first rowid >= target (stays when already there) */
  seek(target: number): void;
  /** the contribution at `doc` */
  score(): number;
  /**
   * An upper bound of score() over rowids target..upTo, upTo being set by the call
   * (END when nothing follows). Targets must not decrease between calls.
   */
  shallow(target: number): number;
  upTo: number;
}

/** First index in [from, arr.length) with arr[i] >= target (galloping: cursors move forward). */
export function gallop(arr: Int32Array, from: number, target: number): number {
  const n = arr.length;
  if (from >= n || arr[from]! >= target) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < n && arr[hi]! < target) {
    lo = hi;
    step <<= 1;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  // arr[lo] < target; answer in (lo, hi]
  let a = lo + 1;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (arr[mid]! < target) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * How many following blocks a list's bound may stretch over: those whose maximum is
 * at most its current block's, so the bound stays the same while the window it
 * holds for grows. With blocks of 32 postings the walks otherwise recomputed their
 * windows every ten visits or so at 1,000,000 providers.
 */
const EXTEND = 16;

export class TermCursor implements Cursor {
  doc: number;
  upTo = END;
  readonly max: number;
  readonly cost: number;
  private i = 0;
  private block = 0;
  // the list's arrays as own fields: every visit reads them
  private readonly rowids: Int32Array;
  private readonly impacts: Float32Array | Float64Array;

  readonly list: TermPostings;
  constructor(list: TermPostings) {
    this.list = list;
    this.rowids = list.rowids;
    this.impacts = list.impacts;
    this.doc = list.rowids.length > 0 ? list.rowids[0]! : END;
    this.max = list.max;
    this.cost = list.rowids.length;
  }

  next(): void {
    const i = ++this.i;
    this.doc = i < this.rowids.length ? this.rowids[i]! : END;
  }

  seek(target: number): void {
    if (this.doc >= target) return;
    const rowids = this.rowids;
    let i = this.i + 1;
    // the next posting is often the one (lists of common words): no gallop call then
    if (i < rowids.length && rowids[i]! < target) i = gallop(rowids, i, target);
    this.i = i;
    this.doc = i < rowids.length ? rowids[i]! : END;
  }

  score(): number {
    return this.impacts[this.i]!;
  }

  /** The index of the current posting in `list` (its length at the end). */
  get at(): number {
    return this.i;
  }

  /** To the posting at index `i` (forward only). */
  moveTo(i: number): void {
    this.i = i;
    this.doc = i < this.rowids.length ? this.rowids[i]! : END;
  }

  /** The current block's maximum, over it and the following blocks (up to EXTEND) that stay at or below it. */
  shallow(target: number): number {
    const b = (this.block = gallop(this.list.blockLast, this.block, target));
    if (b >= this.list.blockLast.length) {
      this.upTo = END;
      return 0;
    }
    const { blockLast, blockMax } = this.list;
    const bound = blockMax[b]!;
    let last = b;
    while (last < b + EXTEND && last + 1 < blockMax.length && blockMax[last + 1]! <= bound) last++;
    this.upTo = blockLast[last]!;
    return bound;
  }
}

export class SumCursor implements Cursor {
  doc: number;
  upTo = END;
  readonly max: number;
  readonly cost: number;

  private readonly children: Cursor[];
  private readonly weights: number[];
  constructor(
    children: Cursor[],
    weights: number[],
  ) {
    this.children = children;
    this.weights = weights;
    this.max = children.reduce((m, c, i) => m + weights[i]! * c.max, 0);
    this.cost = children.reduce((n, c) => n + c.cost, 0);
    this.doc = this.least();
  }

  private least(): number {
    let d = END;
    for (const c of this.children) if (c.doc < d) d = c.doc;
    return d;
  }

  next(): void {
    const d = this.doc;
    for (const c of this.children) if (c.doc === d) c.next();
    this.doc = this.least();
  }

  seek(target: number): void {
    if (this.doc >= target) return;
    for (const c of this.children) c.seek(target);
    this.doc = this.least();
  }

  score(): number {
    let s = 0;
    const { children, weights, doc } = this;
    for (let i = 0; i < children.length; i++) if (children[i]!.doc === doc) s += weights[i]! * children[i]!.score();
    return s;
  }

  shallow(target: number): number {
    let bound = 0;
    let upTo = END;
    for (let i = 0; i < this.children.length; i++) {
      const c = this.children[i]!;
      bound += this.weights[i]! * c.shallow(target);
      if (c.upTo < upTo) upTo = c.upTo;
    }
    this.upTo = upTo;
    return bound;
  }
}

/**
 * A group walked as the plain sum of its two lists (groupCursor's split word
 * group): the top-k's disjunctive walk takes them as lists of their own, each with
 * its own bound. Not a SumCursor: its two plain lists as fields keep every call
 * here on one class (the walks visit these groups hundreds of thousands of times).
 */
export class PartsCursor implements Cursor {
  doc: number;
  upTo = END;
  readonly max: number;
  readonly cost: number;
  readonly parts: TermCursor[];
  private readonly a: TermCursor;
  private readonly b: TermCursor;
  constructor(a: TermCursor, b: TermCursor) {
    this.a = a;
    this.b = b;
    this.parts = [a, b];
    this.max = a.max + b.max;
    this.cost = a.cost + b.cost;
    this.doc = Math.min(a.doc, b.doc);
  }

  next(): void {
    const { a, b, doc } = this;
    if (a.doc === doc) a.next();
    if (b.doc === doc) b.next();
    this.doc = a.doc < b.doc ? a.doc : b.doc;
  }

  seek(target: number): void {
    if (this.doc >= target) return;
    this.a.seek(target);
    this.b.seek(target);
    this.doc = this.a.doc < this.b.doc ? this.a.doc : this.b.doc;
  }

  /** The parts' sum in their order (a part moved past `doc` adds nothing). */
  score(): number {
    const { a, b, doc } = this;
    return (a.doc === doc ? a.score() : 0) + (b.doc === doc ? b.score() : 0);
  }

  /** `doc` again after the parts were moved directly (the conjunctive walk's skips). */
  sync(): void {
    this.doc = this.a.doc < this.b.doc ? this.a.doc : this.b.doc;
  }

  shallow(target: number): number {
    const bound = this.a.shallow(target) + this.b.shallow(target);
    this.upTo = this.a.upTo < this.b.upTo ? this.a.upTo : this.b.upTo;
    return bound;
  }
}
