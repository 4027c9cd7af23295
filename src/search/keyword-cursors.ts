/**
 * Cursors over posting lists in rowid order: the keyword side walks a query's
 * groups with these instead of building a list per group (keyword-top-k.ts).
 *
 *  - TermCursor: one term's list;
 *  - SumCursor: the profiles any child matches, scoring the weighted sum of the
 *    children that match (a group's alternatives; a prefix's expansions);
 *  - PhraseCursor: the profiles every child matches (a phrase's words: the
 *    postings keep no positions, so a phrase is its words' co-occurrence), scoring
 *    the sum of its words.
 * Each gives an upper bound of its score overall (`max`) and over the block of
 * rowids ahead (`shallow`), which lets the top-k skip what cannot enter. Scores are
 * summed in the query's order (groups, alternatives, words, expansions), so the
 * same profile always gets the same floating-point score.
 */
import type { KeywordAlternative, KeywordGroup } from './keyword-query.ts';
import type { PostingsSource, TermPostings } from './posting-list.ts';

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

export class PhraseCursor implements Cursor {
  doc = END;
  upTo = END;
  readonly max: number;
  readonly cost: number;
  /** the words, rarest first, for aligning */
  private readonly byCost: Cursor[];

  private readonly words: Cursor[];
  constructor(words: Cursor[]) {
    this.words = words;
    this.max = words.reduce((m, w) => m + w.max, 0);
    this.cost = Math.min(...words.map((w) => w.cost));
    this.byCost = [...words].sort((a, b) => a.cost - b.cost);
    this.align(this.byCost[0]!.doc);
  }

  /** to the first rowid >= target that every word holds */
  private align(target: number): void {
    let t = target;
    for (let i = 0; i < this.byCost.length && t < END; ) {
      const w = this.byCost[i]!;
      w.seek(t);
      if (w.doc !== t) {
        t = w.doc;
        i = 0;
      } else i++;
    }
    this.doc = t;
  }

  next(): void {
    const lead = this.byCost[0]!;
    lead.next();
    this.align(lead.doc);
  }

  seek(target: number): void {
    if (this.doc >= target) return;
    this.align(target);
  }

  score(): number {
    let s = 0;
    for (const w of this.words) s += w.score();
    return s;
  }

  shallow(target: number): number {
    let bound = 0;
    let upTo = END;
    for (const w of this.words) {
      bound += w.shallow(target);
      if (w.upTo < upTo) upTo = w.upTo;
    }
    this.upTo = upTo;
    return bound;
  }
}

/** A word: its own list, or a prefix's expansions (each expansion the profile holds counts). */
function wordCursor(source: PostingsSource, token: string, prefix: boolean): Cursor {
  if (!prefix) return new TermCursor(source.term(token));
  const terms = source.expansions(token);
  return new SumCursor(
    terms.map((t) => new TermCursor(source.term(t))),
    terms.map(() => 1),
  );
}

export function alternativeCursor(source: PostingsSource, alt: KeywordAlternative): Cursor {
  const last = alt.tokens.length - 1;
  const words = alt.tokens.map((t, i) => wordCursor(source, t, alt.prefix && i === last));
  return words.length === 1 ? words[0]! : new PhraseCursor(words);
}

/**
 * A word list this long is walked as itself inside its group rather than copied into
 * the group's kept list: at 1,000,000 providers a prefix of a common word is one
 * list of 400,000 profiles and a few small ones, and kept unions of that size cost
 * milliseconds each to build and filled the group cache (evicting the service
 * groups). Below it (every list at 100,000 providers but a few function words),
 * the kept list's own block bounds make the walk cheaper than the split.
 */
export const SPLIT_MIN_POSTINGS = 65_536;

/**
 * A group's cursor: the weighted sum of the alternatives a profile matches. A plain
 * word or phrase is walked as it is. A group of words at weight 1 (a prefix's
 * expansions, a word and its dictionary forms) whose largest list is long is that
 * list walked as it is plus the rest as one kept list (postings-store.ts
 * groupList). Every score is a sum of float32 contributions, exact in float64 in
 * any order, so the split scores each profile as the whole group would. Any other
 * group is walked through its kept list, whose block bounds are the group's own and
 * not the sum of its parts'. (`splitMin` other than the default: tests, which split
 * their small lists too.)
 */
export function groupCursor(source: PostingsSource, group: KeywordGroup, splitMin = SPLIT_MIN_POSTINGS): Cursor {
  const alts = group.alternatives;
  const only = alts.length === 1 && alts[0]!.weight === 1 && !alts[0]!.prefix ? alts[0]! : null;
  if (only) return alternativeCursor(source, only);
  const words = alts.every((a) => a.weight === 1 && a.tokens.length === 1) ? alts.flatMap((a) => (a.prefix ? source.expansions(a.tokens[0]!) : a.tokens)) : null;
  if (!words || words.length === 0) return new TermCursor(source.group(group));
  const lists = words.map((w) => source.term(w));
  let head = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i]!.rowids.length > lists[head]!.rowids.length) head = i;
  if (words.length === 1) return new TermCursor(lists[0]!);
  if (lists[head]!.rowids.length < splitMin) return new TermCursor(source.group(group));
  const rest = words.filter((_, i) => i !== head).map((w) => ({ tokens: [w], prefix: false, weight: 1 }));
  return new PartsCursor(new TermCursor(lists[head]!), new TermCursor(source.group({ alternatives: rest })));
}
