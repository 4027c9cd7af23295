/**
 * The vector side's two-pass scan (src/search/vector-index.ts): the int8 codes pick
 * the positions the int16 vectors score again, and the answer must be the int16
 * scan's. Vectors in tight bunches make many code scores tie while their int16
 * scores differ, so a margin too small, or a code score used as the final one,
 * changes the top k. The index is written by the builder's VectorCollector and read
 * back as a server does.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { VectorCollector, VECTOR_UNIT } from '../../src/snapshot/vector-partitions.ts';
import { filterSetOf } from '../../src/query/filter-set.ts';
import { loadVectorIndex, nearestRowids, rankLists, type VectorIndex } from '../../src/search/vector-index.ts';
import { groupByList } from '../../src/search/vector-filter-lists.ts';
import { TopK } from '../../src/search/top-k.ts';
import { mulberry32 as prng } from '../http/hostile.ts';
import { tempDir } from '../snapshot/fixture.ts';

const work = tempDir();
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const DIMS = 16;
const COUNT = 24_000; // over PARTITION_FROM: several lists
const random = prng(99);

function unit(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** 60 directions, 400 vectors each within about 1e-3 of theirs: a code step is about 1e-2. */
function bunchedVectors(): Float32Array[] {
  const centers = Array.from({ length: 60 }, () => unit(Float32Array.from({ length: DIMS }, () => random() * 2 - 1)));
  return Array.from({ length: COUNT }, (_, i) => unit(centers[i % 60]!.map((x) => x + (random() - 0.5) * 2e-3)));
}

function writtenIndex(vectors: Float32Array[]): VectorIndex {
  const file = path.join(work, 'vectors.db');
  const db = new Database(file);
  const collector = new VectorCollector(vectors.length, DIMS);
  vectors.forEach((v, i) => collector.add(i * 2 + 1, v));
  collector.write(db);
  const index = loadVectorIndex(db, DIMS, 1);
  db.close();
  return index;
}

/** A vector's int16 score, as the index keeps it. */
function int16Score(index: VectorIndex, query: Float32Array, rowid: number): number {
  const at = index.positionOf[rowid]! * index.dims;
  let score = 0;
  for (let d = 0; d < index.dims; d++) score += (query[d]! / VECTOR_UNIT) * index.kernel.int16s[at + d]!;
  return score;
}

/** The k best of the given rowids by int16 score, (score desc, rowid asc): an exhaustive scan. */
function int16Best(index: VectorIndex, query: Float32Array, rowids: readonly number[], k: number): number[] {
  const top = new TopK(k);
  for (const rowid of rowids) top.push(int16Score(index, query, rowid), rowid);
  return top.ids();
}

describe('nearestRowids', () => {
  const vectors = bunchedVectors();
  const index = writtenIndex(vectors);

  it('stores int8 codes within half a code step, and int16 values within half a unit, of each float', () => {
    expect(index.lists).toBeGreaterThan(1);
    for (let p = 0; p < index.count; p += 97) {
      const float = vectors[(index.rowids[p]! - 1) / 2]!;
      for (let d = 0; d < DIMS; d++) {
        const code = index.kernel.codes[p * index.kernel.codeStride + d]!;
        expect(Math.abs(code * index.codeScale[d]! - float[d]!)).toBeLessThanOrEqual(index.codeScale[d]! / 2 + 1e-9);
        expect(Math.abs(index.kernel.int16s[p * DIMS + d]! - float[d]! * VECTOR_UNIT)).toBeLessThanOrEqual(0.5 + 1e-9);
      }
    }
  });

  it('scores within 0.5 x the L1 norm of the query / VECTOR_UNIT of the float32 dot product', () => {
    const query = unit(Float32Array.from({ length: DIMS }, () => random() * 2 - 1));
    const slack = (0.5 * query.reduce((n, x) => n + Math.abs(x), 0)) / VECTOR_UNIT;
    for (let i = 0; i < COUNT; i += 101) {
      const exact = vectors[i]!.reduce((n, x, d) => n + x * query[d]!, 0);
      expect(Math.abs(int16Score(index, query, i * 2 + 1) - exact)).toBeLessThanOrEqual(slack);
    }
  });

  it.each([1, 10, 150])('answers a filtered exact scan with the int16 scan top %i', (k) => {
    for (let q = 0; q < 20; q++) {
      // a query near one bunch, and filters of every third or of 9,000 random providers (exact scans)
      const query = unit(vectors[q * 37]!.map((x) => x + (random() - 0.5) * 0.05));
      const rowids = Array.from(index.rowids).filter((r) => (q % 2 ? r % 3 === 0 : random() < 9_000 / COUNT)).sort((a, b) => a - b);
      const set = filterSetOf(Int32Array.from(rowids), COUNT * 2 + 1);
      expect(nearestRowids(index, query, set, k)).toEqual(int16Best(index, query, rowids, k));
    }
  });

  it('answers an unfiltered query from the probed lists in int16 score order', () => {
    const query = unit(vectors[5]!.map((x) => x + 0.01));
    const found = nearestRowids(index, query, null, 150);
    expect(found).toHaveLength(150);
    expect(new Set(found).size).toBe(150);
    // every member of the query's own bunch scores above every other vector, and the bunch has 400
    expect(found.every((r) => ((r - 1) / 2) % 60 === 5)).toBe(true);
    expect(found).toEqual(int16Best(index, query, found, 150));
  });

  it("holds second copies of some vectors' codes, each in a list other than its vector's", () => {
    const { count, spillStart, spillPrimary, listStart, lists, kernel } = index;
    expect(spillPrimary.length).toBeGreaterThan(count / 4);
    const stride = kernel.codeStride;
    for (let l = 0; l < lists; l++) {
      for (let s = spillStart[l]!; s < spillStart[l + 1]!; s++) {
        const p = spillPrimary[s]!;
        expect(p < listStart[l]! || p >= listStart[l + 1]!).toBe(true);
        expect(kernel.codes.subarray((count + s) * stride, (count + s + 1) * stride)).toEqual(kernel.codes.subarray(p * stride, (p + 1) * stride));
      }
    }
  });

  it('answers the exact int16 top k, each vector once, when an unfiltered probe visits every list and copy', () => {
    // k x 8 (the fewest visits for k) covers all 24,000 vectors and their copies
    const k = Math.ceil((index.count + index.spillPrimary.length) / 8) + 10;
    const all = Array.from(index.rowids);
    for (const q of [3, 17, 42]) {
      const query = unit(vectors[q * 91]!.map((x) => x + (random() - 0.5) * 0.2));
      expect(nearestRowids(index, query, null, k)).toEqual(int16Best(index, query, all, k));
    }
  });

  it("groups a filter's providers by list: each once, in its list's range, ascending", () => {
    // every fifth rowid, and rowids past the last vector and between vectors (no vector: left out)
    const rowids = Int32Array.from([...Array.from(index.rowids).filter((r) => r % 5 === 0), COUNT * 2 + 7].sort((a, b) => a - b));
    const { positions, start } = groupByList(index, Int32Array.from([0, 2, ...rowids]));
    expect(start[index.lists]).toBe(rowids.length - 1);
    expect(new Set(Array.from(positions, (p) => index.rowids[p]!))).toEqual(new Set(Array.from(rowids).slice(0, -1)));
    for (let l = 0; l < index.lists; l++) {
      for (let i = start[l]!; i < start[l + 1]!; i++) {
        expect(positions[i]).toBeGreaterThanOrEqual(index.listStart[l]!);
        expect(positions[i]).toBeLessThan(index.listStart[l + 1]!);
        if (i > start[l]!) expect(positions[i]).toBeGreaterThan(positions[i - 1]!);
      }
    }
  });

  it("ranks every list by its centroid's codes in the float centroids' order, but for near ties", () => {
    const db = new Database(path.join(work, 'vectors.db'), { readonly: true });
    const centroids = (db.prepare('SELECT centroid FROM vector_partitions ORDER BY list').pluck().all() as Buffer[]).map((b) => new Float32Array(b.buffer, b.byteOffset, DIMS));
    db.close();
    for (const q of [11, 29]) {
      const query = unit(vectors[q]!.map((x) => x + 0.01));
      const order = rankLists(index, { start: index.listStart, positions: null }, query);
      const ranked: number[] = [];
      for (let l = order.next(); l >= 0; l = order.next()) ranked.push(l);
      expect([...ranked].sort((a, b) => a - b)).toEqual(Array.from({ length: index.lists }, (_, l) => l));
      // a centroid code is within half a step of its float: a score within this of the float one, so two lists swap only when their floats are within twice it
      const slack = 0.5 * query.reduce((n, x, d) => n + Math.abs(x) * index.centroidScale[d]!, 0) + 1e-3;
      const exact = ranked.map((l) => centroids[l]!.reduce((n, x, d) => n + x * query[d]!, 0));
      for (let i = 1; i < exact.length; i++) expect(exact[i]!).toBeLessThanOrEqual(Math.max(...exact.slice(0, i)) + 2 * slack);
      // nearest first: the query's bunch lies in the first list
      const members = index.rowids.subarray(index.listStart[ranked[0]!], index.listStart[ranked[0]! + 1]);
      expect(Array.from(members).some((r) => ((r - 1) / 2) % 60 === q)).toBe(true);
    }
  });

  it("scans a large filter's providers nearest lists first and finds the query's bunch", () => {
    // a filter of 2 in 3 (16,000, over the 10,000 an exact scan takes): the lists nearest the query hold its bunch
    const query = unit(vectors[7]!.map((x) => x + 0.01));
    const rowids = Array.from(index.rowids).filter((r) => r % 3 !== 0).sort((a, b) => a - b);
    const set = filterSetOf(Int32Array.from(rowids), COUNT * 2 + 1);
    expect(nearestRowids(index, query, set, 150)).toEqual(int16Best(index, query, rowids, 150));
  });
});
