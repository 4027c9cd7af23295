/**
 * Block-max bounds of a posting list: per block of BLOCK postings, the block's last
 * rowid and its largest contribution. The builder stores them beside each term's
 * list (search_postings.block_last, block_max), so a search that reads a list for
 * the first time reads its bounds too instead of passing over the list; the query
 * side computes the same bounds for the group lists it builds (posting-list.ts).
 */

/** Postings per block of the block-max bounds (the reader's cursors skip block by block). */
export const BLOCK = 32;

export interface BlockBounds {
  /** the last rowid of each block */
  blockLast: Int32Array;
  /** the largest contribution of each block */
  blockMax: Float64Array;
}

/** The bounds of a list in rowid order with its contributions. */
export function blockBounds(rowids: Int32Array, impacts: Float32Array | Float64Array): BlockBounds {
  const blocks = Math.ceil(rowids.length / BLOCK);
  const blockLast = new Int32Array(blocks);
  const blockMax = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    const end = Math.min(rowids.length, (b + 1) * BLOCK);
    let m = 0;
    for (let i = b * BLOCK; i < end; i++) if (impacts[i]! > m) m = impacts[i]!;
    blockMax[b] = m;
    blockLast[b] = rowids[end - 1]!;
  }
  return { blockLast, blockMax };
}
