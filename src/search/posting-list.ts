/**
 * A posting list as the keyword side walks it (rowid order, with block-max bounds),
 * and where cursors get their lists. Its own module so that the cursors
 * (keyword-cursors.ts) and the per-snapshot store that builds group lists with
 * them (postings-store.ts) both depend on it rather than on each other.
 */
import { BLOCK, blockBounds, type BlockBounds } from '../snapshot/posting-blocks.ts';
import type { KeywordGroup } from './keyword-query.ts';

export { BLOCK };

export interface TermPostings extends BlockBounds {
  /** ascending */
  rowids: Int32Array;
  /** bm25 contribution of the term (or the group's score) for each profile */
  impacts: Float32Array | Float64Array;
  /** the largest impact of the list (0 when empty) */
  max: number;
}

/** A list with the block bounds the snapshot stored for it. */
export function termPostingsWith(rowids: Int32Array, impacts: Float32Array | Float64Array, { blockLast, blockMax }: BlockBounds): TermPostings {
  let max = 0;
  for (let b = 0; b < blockMax.length; b++) if (blockMax[b]! > max) max = blockMax[b]!;
  return { rowids, impacts, blockLast, blockMax, max };
}

/** A list with its block bounds computed (a group's list, or a test's). */
export const termPostingsOf = (rowids: Int32Array, impacts: Float32Array | Float64Array): TermPostings =>
  termPostingsWith(rowids, impacts, blockBounds(rowids, impacts));

/** Where cursors get their lists: a snapshot's store, or a test's arrays. */
export interface PostingsSource {
  term(term: string): TermPostings;
  expansions(prefix: string): string[];
  /** the group's list (groupList), kept or not */
  group(group: KeywordGroup): TermPostings;
}
