/**
 * A posting list as the keyword side walks it (rowid order, with block-max bounds),
 * and where cursors get their lists. Its own module so that the cursors
 * (keyword-cursors.ts) and the per-snapshot store that builds group lists with
 * them (postings-store.ts) both depend on it rather than on each other.
 */
import type { KeywordGroup } from './keyword-query.ts';

/** Postings per block of the block-max bounds. */
export const BLOCK = 32;

export interface TermPostings {
  /** ascending */
  rowids: Int32Array;
  /** bm25 contribution of the term (or the group's score) for each profile */
  impacts: Float32Array | Float64Array;
  /** the last rowid of each block */
  blockLast: Int32Array;
  /** the largest impact of each block */
  blockMax: Float64Array;
  /** the largest impact of the list (0 when empty) */
  max: number;
}

/** A list with its block bounds (the builder's arrays, or a test's). */
export function termPostingsOf(rowids: Int32Array, impacts: Float32Array | Float64Array): TermPostings {
  const blocks = Math.ceil(rowids.length / BLOCK);
  const blockLast = new Int32Array(blocks);
  const blockMax = new Float64Array(blocks);
  let max = 0;
  for (let b = 0; b < blocks; b++) {
    const end = Math.min(rowids.length, (b + 1) * BLOCK);
    let m = 0;
    for (let i = b * BLOCK; i < end; i++) if (impacts[i]! > m) m = impacts[i]!;
    blockMax[b] = m;
    blockLast[b] = rowids[end - 1]!;
    if (m > max) max = m;
  }
  return { rowids, impacts, blockLast, blockMax, max };
}

/** Where cursors get their lists: a snapshot's store, or a test's arrays. */
export interface PostingsSource {
  term(term: string): TermPostings;
  expansions(prefix: string): string[];
  /** the group's list (groupList), kept or not */
  group(group: KeywordGroup): TermPostings;
}
