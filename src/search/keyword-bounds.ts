/**
 * The bounds and moves the keyword top-k's walks (keyword-top-k.ts) share: the
 * rounding rule of every pruning comparison, block bounds over a window of rowids,
 * the gallop through a filter's allowed rowids, and a list's skip over postings
 * that cannot enter the top k.
 */
import type { FilterSet } from '../query/filter-set.ts';
import { END, gallop, type Cursor, type TermCursor } from './keyword-cursors.ts';
import { BLOCK } from './posting-list.ts';

/**
 * Rounding. A block bound is summed in the query's order, like the score it bounds,
 * from per-group bounds at least as large: rounded addition is monotone, so the
 * score never exceeds the bound and `bound <= k-th best` prunes exactly (a profile
 * scoring exactly the k-th best with a larger rowid loses the tie anyway). The
 * MaxScore sums run in another order and get this relative slack instead. (An
 * absolute slack kept whole lists of a function word, all scoring about 1e-6, from
 * being skipped.)
 */
const SLACK = 1 + 1e-12;
export const cannotReach = (bound: number, threshold: number) => bound * SLACK <= threshold;

/** The next allowed rowid >= target, moving forward through the filter's sorted rowids. */
export class AllowedWalk {
  private i = 0;
  private readonly set: FilterSet;
  constructor(set: FilterSet) {
    this.set = set;
  }

  from(target: number): number {
    const rowids = this.set.rowids;
    const i = gallop(rowids, this.i, target);
    this.i = i;
    return i < rowids.length ? rowids[i]! : END;
  }
}

/**
 * Moves a lone essential list past its postings that cannot pass `threshold` even
 * with `rest` (the sum of every other group's largest score) added: whole blocks
 * by their maxima, then posting by posting. The disjunctive walk would visit and
 * reject each of them (its bounds are at most these); a common word's list after
 * the first k is mostly such postings, and this loop costs a comparison each
 * instead of a visit.
 */
export function skipUnreachable(cursor: TermCursor, rest: number, threshold: number): void {
  const { rowids, impacts, blockMax } = cursor.list;
  let i = cursor.at;
  while (i < rowids.length) {
    const b = (i / BLOCK) | 0;
    if (cannotReach(blockMax[b]! + rest, threshold)) {
      i = (b + 1) * BLOCK;
      continue;
    }
    if (!cannotReach(impacts[i]! + rest, threshold)) break;
    i++;
  }
  cursor.moveTo(Math.min(i, rowids.length));
}

/**
 * The conjunctive walk's lead at a posting that cannot pass: moves it past that
 * one and those that follow, up to `upTo` (the block window that `rest`, the other
 * groups' bounds, holds for), that cannot pass either. Posting by posting: the
 * lead's bound over the window is its current block's maximum, which can pass (or
 * the window would have been skipped whole).
 */
export function skipUnreachableUpTo(cursor: TermCursor, rest: number, threshold: number, upTo: number): void {
  const { rowids, impacts } = cursor.list;
  let i = cursor.at;
  while (i < rowids.length && rowids[i]! <= upTo && cannotReach(impacts[i]! + rest, threshold)) i++;
  cursor.moveTo(i);
}

/**
 * The sum, in query order, of every group's bound over the block ahead of `doc`
 * (each group's own bound into `bounds`, when given); sets `window.upTo`.
 */
export function blockBound(groups: Cursor[], doc: number, window: { upTo: number }, bounds?: Float64Array): number {
  let bound = 0;
  let upTo = END;
  for (let g = 0; g < groups.length; g++) {
    const c = groups[g]!;
    const b = c.shallow(doc);
    if (bounds) bounds[g] = b;
    bound += b;
    if (c.upTo < upTo) upTo = c.upTo;
  }
  window.upTo = upTo;
  return bound;
}

/**
 * blockBound for the disjunctive walk: the lists still proposing candidates (sorted
 * position >= essential) give their block's bound and the window, the others their
 * largest score. A list that is only looked up would otherwise cut the window at
 * each of its blocks: a function word's blocks span a few dozen rowids.
 */
export function essentialBlockBound(groups: Cursor[], rank: Int32Array, essential: number, doc: number, window: { upTo: number }, bounds: Float64Array): number {
  let bound = 0;
  let upTo = END;
  for (let g = 0; g < groups.length; g++) {
    const c = groups[g]!;
    let b = c.max;
    if (rank[g]! >= essential) {
      b = c.shallow(doc);
      if (c.upTo < upTo) upTo = c.upTo;
    }
    bounds[g] = b;
    bound += b;
  }
  window.upTo = upTo;
  return bound;
}
