/**
 * A list's best postings, for the keyword top-k of a single list (keyword-top-k.ts
 * topOfList): unfiltered they are the answer; filtered, the allowed ones are pushed
 * first, so the walk in rowid order that follows starts with the k-th best near its
 * final value and skips most blocks. Kept per list (a list object lives as long as
 * the snapshot's cache keeps it).
 */
import { BLOCK, type TermPostings } from './posting-list.ts';

const kept = new WeakMap<TermPostings, Int32Array>();

/**
 * The positions of the list's `t` best postings (impact desc, rowid asc). Only
 * blocks whose largest impact reaches the t-th largest block maximum are read: the
 * t best postings lie in such blocks (t blocks each hold a posting at least that
 * large, so the t-th best posting is too).
 */
export function bestPositions(list: TermPostings, t: number): Int32Array {
  const hit = kept.get(list);
  if (hit && (hit.length >= t || hit.length === list.rowids.length)) return hit.length > t ? hit.subarray(0, t) : hit;
  const { rowids, impacts, blockMax } = list;
  const blocks = blockMax.length;
  const floor = blocks <= t ? 0 : Float64Array.from(blockMax).sort()[blocks - t]!;
  const positions: number[] = [];
  for (let b = 0; b < blocks; b++) {
    if (blockMax[b]! < floor) continue;
    for (let i = b * BLOCK, end = Math.min(rowids.length, i + BLOCK); i < end; i++) if (impacts[i]! >= floor) positions.push(i);
  }
  // positions ascend with rowids: among equal impacts, the smaller rowid first
  positions.sort((a, b) => impacts[b]! - impacts[a]! || a - b);
  const best = Int32Array.from(positions.slice(0, t));
  kept.set(list, best);
  return best;
}

/** Whether a walk's current rowid was pushed already (rowids asked in ascending order). */
export class SeedSkip {
  private i = 0;
  private readonly seeds: Int32Array;
  constructor(seeds: Int32Array) {
    this.seeds = seeds;
  }

  has(doc: number): boolean {
    const s = this.seeds;
    while (this.i < s.length && s[this.i]! < doc) this.i++;
    return this.i < s.length && s[this.i] === doc;
  }
}
