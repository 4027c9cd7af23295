/**
 * vector_partitions written two ways must be the same table: centroids trained
 * beforehand on partitionPlan's sample (what the builder does with embedding
 * workers, which then assign each vector) and partitioning after all vectors are
 * in (one thread, an external embedder, and the query side's partitionVectors).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { NearestCentroid } from '../../src/snapshot/vector-nearest.ts';
import {
  partitionPlan,
  partitionVectors,
  trainCentroidsOnSample,
  VectorCollector,
} from '../../src/snapshot/vector-partitions.ts';
import { SPILL_FRACTION } from '../../src/snapshot/vector-spill.ts';
import { tempDir } from './fixture.ts';

const work = tempDir();
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Deterministic unit vectors around a few directions (so the lists differ in size). */
function vectors(count: number, dims: number): Float32Array {
  const data = new Float32Array(count * dims);
  let state = 12345;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296) - 0.5;
  for (let i = 0; i < count; i++) {
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const v = (d === i % 5 ? 2 : 0) + next();
      data[i * dims + d] = v;
      norm += v * v;
    }
    for (let d = 0; d < dims; d++) data[i * dims + d]! /= Math.sqrt(norm);
  }
  return data;
}

function table(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT list, hex(centroid) c, hex(rowids) r, hex(vectors) v, hex(spill_rowids) s FROM vector_partitions ORDER BY list').all() as Array<
      Record<string, string>
    >).map((row) => `${row.list}:${row.c}:${row.r}:${row.v}:${row.s}`);
  } finally {
    db.close();
  }
}

describe('NearestCentroid', () => {
  it('picks a centroid of the best score, scored in plain JavaScript, over more centroids than a kernel call takes', () => {
    const dims = 64;
    const lists = 1500; // more than CHUNK: scored in two calls
    const centroids = vectors(lists, dims);
    const data = vectors(400, dims).map((x, i) => x + Math.sin(i) * 0.05);
    const nearest = new NearestCentroid(centroids, lists, dims);
    for (let i = 0; i < 400; i++) {
      const score = (l: number) => {
        let s = 0;
        for (let d = 0; d < dims; d++) s += centroids[l * dims + d]! * data[i * dims + d]!;
        return s;
      };
      let best = -Infinity;
      for (let l = 0; l < lists; l++) best = Math.max(best, score(l));
      expect(score(nearest.of(data, i * dims))).toBeGreaterThan(best - 1e-6);
    }
  });
});

describe('vector partitions', () => {
  it('are the same whether the centroids are trained first (workers assign) or after all vectors are in', () => {
    const count = 24_000;
    const dims = 8;
    const data = vectors(count, dims);
    const rowidOf = (i: number) => i * 3 + 1; // published rowids have gaps

    const after = new VectorCollector(count, dims);
    for (let i = 0; i < count; i++) after.add(rowidOf(i), data.subarray(i * dims, i * dims + dims));

    const { lists, samplePositions } = partitionPlan(count);
    expect(lists).toBeGreaterThan(1);
    const sample = new Float32Array(samplePositions.length * dims);
    samplePositions.forEach((p, s) => sample.set(data.subarray(p * dims, p * dims + dims), s * dims));
    const centroids = trainCentroidsOnSample(sample, samplePositions.length, dims, lists);
    const first = new VectorCollector(count, dims);
    first.setPartitioning(lists, centroids);
    const nearest = new NearestCentroid(centroids, lists, dims);
    for (let i = 0; i < count; i++) {
      // half as a worker does (list given), half left to the collector
      const list = i % 2 === 0 ? nearest.of(data, i * dims) : undefined;
      first.add(rowidOf(i), data.subarray(i * dims, i * dims + dims), list);
    }

    const files = ['after.db', 'first.db'].map((name) => path.join(work, name));
    const results = [after, first].map((collector, k) => {
      const db = new Database(files[k]);
      const result = collector.write(db);
      db.close();
      return result;
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[0]).toMatchObject({ coarseLists: lists, vectors: count });
    // each coarse list is split into fine lists, the rows of vector_partitions
    expect(results[0]!.lists).toBeGreaterThan(lists);
    const written = table(files[0]!);
    expect(written).toHaveLength(results[0]!.lists);
    expect(table(files[1]!)).toEqual(written);
    // the coarse centroids are the query side's own partitioning of the same vectors, and a fine list holds members of its coarse list only
    const expected = partitionVectors(data, count, dims);
    const db = new Database(files[0], { readonly: true });
    const coarse = db.prepare('SELECT hex(centroid) FROM vector_coarse_lists ORDER BY coarse').pluck().all() as string[];
    expect(coarse).toHaveLength(lists);
    expect(coarse[0]).toBe(Buffer.from(expected.centroids.buffer, 0, dims * 4).toString('hex').toUpperCase());
    const rows = db.prepare('SELECT coarse, rowids FROM vector_partitions ORDER BY list').all() as { coarse: number; rowids: Buffer }[];
    db.close();
    let seen = 0;
    rows.forEach(({ coarse: c, rowids }, l) => {
      if (l > 0) expect(c).toBeGreaterThanOrEqual(rows[l - 1]!.coarse);
      for (const rowid of new Int32Array(rowids.buffer, rowids.byteOffset, rowids.byteLength / 4)) {
        expect(expected.listOf[(rowid - 1) / 3]).toBe(c);
        seen++;
      }
    });
    expect(seen).toBe(count);
  });

  it('gives the vectors farthest from their fine centroid a second list, never their own, and the rest none', () => {
    const count = 24_000;
    const dims = 8;
    const data = vectors(count, dims);
    const collector = new VectorCollector(count, dims);
    for (let i = 0; i < count; i++) collector.add(i + 1, data.subarray(i * dims, i * dims + dims));
    const file = path.join(work, 'spill.db');
    const db = new Database(file);
    const { spilled } = collector.write(db);
    const rows = db.prepare('SELECT centroid, rowids, spill_rowids FROM vector_partitions ORDER BY list').all() as { centroid: Buffer; rowids: Buffer; spill_rowids: Buffer }[];
    db.close();
    const ints = (b: Buffer) => Array.from(new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4));
    const floats = (b: Buffer) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    expect(spilled).toBe(Math.ceil(SPILL_FRACTION * count));
    const listOf = new Map<number, number>();
    rows.forEach((row, l) => ints(row.rowids).forEach((r) => listOf.set(r, l)));
    /** a vector's squared distance to the centroid of its own list */
    const residual = (rowid: number) => {
      const c = floats(rows[listOf.get(rowid)!]!.centroid);
      return data.subarray((rowid - 1) * dims, rowid * dims).reduce((n, x, d) => n + (x - c[d]!) ** 2, 0);
    };
    const second = new Set<number>();
    rows.forEach((row, l) => {
      const copies = ints(row.spill_rowids);
      expect(copies).toEqual([...copies].sort((a, b) => a - b));
      for (const r of copies) {
        expect(listOf.get(r)).not.toBe(l);
        expect(second.has(r)).toBe(false);
        second.add(r);
      }
    });
    expect(second.size).toBe(spilled);
    const nearestSpilled = Math.min(...Array.from(second, residual));
    for (let r = 1; r <= count; r++) if (!second.has(r)) expect(residual(r)).toBeLessThanOrEqual(nearestSpilled + 1e-6);
  });

  it('refuses a vector count other than the published count', () => {
    const collector = new VectorCollector(2, 4);
    collector.add(1, new Float32Array([1, 0, 0, 0]));
    const db = new Database(':memory:');
    expect(() => collector.write(db)).toThrow('expected 2 vectors, got 1');
    db.close();
  });
});
