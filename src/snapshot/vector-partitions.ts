/**
 * vector_partitions: the vectors of vec_providers grouped IVF-style, written by the
 * builder so that readers load one blob per list instead of scanning vec0 and
 * training at start (src/query/vector-index.ts reads it).
 *
 *  - about sqrt(n)/2 lists (none under PARTITION_FROM vectors: one list, exact scans);
 *  - centroids by spherical k-means on an evenly spaced sample, seeded with evenly
 *    spaced vectors and a fixed number of iterations: the same vectors give the
 *    same partitions;
 *  - each vector in its nearest centroid's list.
 *
 *   CREATE TABLE vector_partitions (list INTEGER PRIMARY KEY, centroid BLOB, rowids BLOB, vectors BLOB)
 *   centroid: Float32 x dims; rowids: Int32 (ascending); vectors: Float32 x dims per rowid
 */
import type Database from 'better-sqlite3';

export const PARTITION_FROM = 20_000;
const KMEANS_ITERATIONS = 6;
const SAMPLE_PER_LIST = 32;

export const CREATE_VECTOR_PARTITIONS_SQL = `CREATE TABLE vector_partitions (
  list     INTEGER PRIMARY KEY,
  centroid BLOB NOT NULL,
  rowids   BLOB NOT NULL,
  vectors  BLOB NOT NULL
)`;

export function dotAt(a: Float32Array, ao: number, b: Float32Array, bo: number, dims: number): number {
  let s = 0;
  for (let d = 0; d < dims; d++) s += a[ao + d]! * b[bo + d]!;
  return s;
}

function normalizeRow(a: Float32Array, o: number, dims: number): void {
  let n = 0;
  for (let d = 0; d < dims; d++) n += a[o + d]! * a[o + d]!;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < dims; d++) a[o + d]! /= n;
}

function nearestCentroid(centroids: Float32Array, lists: number, v: Float32Array, vo: number, dims: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let l = 0; l < lists; l++) {
    const s = dotAt(centroids, l * dims, v, vo, dims);
    if (s > bestScore) {
      bestScore = s;
      best = l;
    }
  }
  return best;
}

function copyRow(from: Float32Array, i: number, to: Float32Array, j: number, dims: number): void {
  to.set(from.subarray(i * dims, i * dims + dims), j * dims);
}

function trainCentroids(data: Float32Array, count: number, dims: number, lists: number): Float32Array {
  const sampleSize = Math.min(count, lists * SAMPLE_PER_LIST);
  const sample = new Float32Array(sampleSize * dims);
  for (let s = 0; s < sampleSize; s++) copyRow(data, Math.floor((s * count) / sampleSize), sample, s, dims);
  const centroids = new Float32Array(lists * dims);
  for (let l = 0; l < lists; l++) copyRow(sample, Math.floor((l * sampleSize) / lists), centroids, l, dims);
  const assign = new Int32Array(sampleSize);
  for (let it = 0; it < KMEANS_ITERATIONS; it++) {
    for (let s = 0; s < sampleSize; s++) assign[s] = nearestCentroid(centroids, lists, sample, s * dims, dims);
    const sums = new Float32Array(lists * dims);
    const sizes = new Int32Array(lists);
    for (let s = 0; s < sampleSize; s++) {
      const l = assign[s]!;
      sizes[l]!++;
      for (let d = 0; d < dims; d++) sums[l * dims + d]! += sample[s * dims + d]!;
    }
    for (let l = 0; l < lists; l++) {
      if (sizes[l]! === 0) continue; // an empty list keeps its centroid
      centroids.set(sums.subarray(l * dims, l * dims + dims), l * dims);
      normalizeRow(centroids, l * dims, dims);
    }
  }
  return centroids;
}

export interface Partitioning {
  lists: number;
  centroids: Float32Array;
  /** list of each vector, in input order */
  listOf: Int32Array;
}

/** Partitions `count` vectors of `dims` (row-major in `data`). */
export function partitionVectors(data: Float32Array, count: number, dims: number): Partitioning {
  // about sqrt(n)/2 lists: half the assignment cost of sqrt(n) at the same recall (measured at 100k)
  const lists = count >= PARTITION_FROM ? Math.round(Math.sqrt(count) / 2) : 1;
  const centroids = lists > 1 ? trainCentroids(data, count, dims, lists) : new Float32Array(dims);
  const listOf = new Int32Array(count);
  if (lists > 1) for (let i = 0; i < count; i++) listOf[i] = nearestCentroid(centroids, lists, data, i * dims, dims);
  return { lists, centroids, listOf };
}

/** Reads vec_providers and writes vector_partitions. */
export function writeVectorPartitions(db: Database.Database, dims: number): { lists: number; vectors: number } {
  const rows = db.prepare('SELECT rowid, embedding FROM vec_providers ORDER BY rowid').raw().all() as [number, Buffer][];
  const count = rows.length;
  const data = new Float32Array(count * dims);
  rows.forEach(([, blob], i) => data.set(new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + dims * 4)), i * dims));
  const { lists, centroids, listOf } = partitionVectors(data, count, dims);
  const members: number[][] = Array.from({ length: lists }, () => []);
  for (let i = 0; i < count; i++) members[listOf[i]!]!.push(i);
  db.exec(CREATE_VECTOR_PARTITIONS_SQL);
  const insert = db.prepare('INSERT INTO vector_partitions (list, centroid, rowids, vectors) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let l = 0; l < lists; l++) {
      const positions = members[l]!;
      const rowids = Int32Array.from(positions, (i) => rows[i]![0]);
      const vectors = new Float32Array(positions.length * dims);
      positions.forEach((i, j) => copyRow(data, i, vectors, j, dims));
      const centroid = centroids.slice(l * dims, l * dims + dims);
      insert.run(l, Buffer.from(centroid.buffer), Buffer.from(rowids.buffer), Buffer.from(vectors.buffer));
    }
  })();
  return { lists, vectors: count };
}
