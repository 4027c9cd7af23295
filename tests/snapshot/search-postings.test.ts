/**
 * search_postings as the builder writes it (src/snapshot/search-postings.ts), read
 * from a real fixture snapshot: each term's block bounds, stored beside its list
 * (schema version 4), are the last rowid and largest impact of every block of
 * BLOCK postings, so a reader can take them as they are.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK } from '../../src/snapshot/posting-blocks.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';

const open = useFixtureSnapshot();

interface Row {
  term: string;
  df: number;
  rowids: Buffer;
  impacts: Buffer;
  block_last: Buffer;
  block_max: Buffer;
}

const copyOf = (b: Buffer) => new Uint8Array(b).buffer;

describe('search_postings block bounds', () => {
  it('hold, for every term, the last rowid and the largest impact of each block of its list', () => {
    const rows = open.snapshot.db.prepare('SELECT term, df, rowids, impacts, block_last, block_max FROM search_postings').all() as Row[];
    expect(rows.length).toBeGreaterThan(100);
    let multiBlock = 0;
    for (const row of rows) {
      const rowids = new Int32Array(copyOf(row.rowids));
      const impacts = new Float32Array(copyOf(row.impacts));
      const blockLast = new Int32Array(copyOf(row.block_last));
      const blockMax = new Float64Array(copyOf(row.block_max));
      expect(rowids.length).toBe(row.df);
      expect(blockLast.length).toBe(Math.ceil(row.df / BLOCK));
      expect(blockMax.length).toBe(blockLast.length);
      if (blockLast.length > 1) multiBlock++;
      for (let b = 0; b < blockLast.length; b++) {
        const end = Math.min(row.df, (b + 1) * BLOCK);
        expect(blockLast[b]).toBe(rowids[end - 1]);
        expect(blockMax[b]).toBe(Math.max(...impacts.subarray(b * BLOCK, end)));
      }
    }
    expect(multiBlock).toBeGreaterThan(10);
  });
});
