/**
 * The merge of a posting list an incremental build changes (src/snapshot/incremental-postings.ts),
 * held to the plain definition: the kept postings and the added ones, in rowid order.
 */
import { describe, expect, it } from 'vitest';
import { mergeList } from '../../src/snapshot/incremental-postings.ts';

function reference(rowids: number[], impacts: number[], gone: Set<number>, adds: { rowid: number; impact: number }[]) {
  const all = rowids.map((rowid, i) => ({ rowid, impact: impacts[i]! })).filter((p) => !gone.has(p.rowid));
  return [...all, ...adds].sort((a, b) => a.rowid - b.rowid);
}

describe('mergeList', () => {
  it('keeps, removes and adds as the plain merge does, at the ends, in the middle and at the same rowid', () => {
    const rowids = [2, 3, 5, 8, 13, 21, 34];
    const impacts = rowids.map((r) => r / 10);
    const cases: Array<[number[], { rowid: number; impact: number }[]]> = [
      [[], []],
      [[2], [{ rowid: 1, impact: 9 }]],
      [[34], [{ rowid: 40, impact: 9 }]],
      [[8, 13], [{ rowid: 8, impact: 7 }, { rowid: 9, impact: 6 }]],
      [[2, 3, 5, 8, 13, 21, 34], []],
      [[99], [{ rowid: 4, impact: 1 }, { rowid: 0, impact: 2 }, { rowid: 35, impact: 3 }]],
      [[], [{ rowid: 6, impact: 1 }, { rowid: 7, impact: 2 }]],
    ];
    for (const [gone, adds] of cases) {
      const merged = mergeList(Int32Array.from(rowids), Float32Array.from(impacts), new Set(gone), adds);
      const expected = reference(rowids, impacts, new Set(gone), adds);
      expect({ gone, adds, rowids: [...merged.rowids] }).toEqual({ gone, adds, rowids: expected.map((p) => p.rowid) });
      expect([...merged.impacts]).toEqual([...Float32Array.from(expected, (p) => p.impact)]);
    }
  });
});
