/**
 * vector_partitions: the vectors of vec_providers grouped IVF-style, written by the
 * builder so that readers load one blob per list instead of scanning vec0 and
 * training at start (src/search/vector-index.ts reads it).
 *
 *  - about sqrt(n)/2 coarse lists (none under PARTITION_FROM vectors: one list, exact
 *    scans), their centroids by spherical k-means on an evenly spaced sample, seeded
 *    with evenly spaced vectors and a fixed number of iterations: the same vectors
 *    give the same partitions; each vector in its nearest centroid's coarse list;
 *  - each coarse list split the same way into up to FINE_LISTS fine lists (splitList),
 *    the rows of vector_partitions, in coarse list order: a query ranks the coarse
 *    lists, then the fine lists of the nearest ones;
 *  - the vectors farthest from their fine centroid named once more, in a second fine
 *    list (spill_rowids; vector-spill.ts says which and why). The reader copies their
 *    codes from the first list's.
 *
 * The builder trains the coarse centroids on the sample's vectors before embedding
 * the rest (partitionPlan tells which positions), so the embedding workers assign
 * each vector as they make it, and the vectors are kept as they are written
 * (VectorCollector) instead of being read back from vec_providers.
 *
 * Each vector is stored as int16 steps of its unit-length float32 vector (what the
 * reader scores with: the floats stay in vec_providers), and as int8 codes, one scale
 * per dimension (the largest magnitude of that dimension over all vectors is code
 * CODE_MAX), which the reader scans first (src/search/vector-index.ts). Computing the
 * codes when a server starts cost 0.85 s at 1,000,000 providers, and rounding float32
 * vectors there read 209 MB instead of the int16 steps' 105.
 *
 *   CREATE TABLE vector_partitions (list INTEGER PRIMARY KEY, coarse INTEGER, centroid BLOB, rowids BLOB, vectors BLOB, codes BLOB, spill_rowids BLOB)
 *   centroid: Float32 x dims; rowids: Int32 (ascending); vectors: Int16 x dims per rowid,
 *   vectors[d] = round(x[d] * VECTOR_UNIT) of the float x; codes: Int8 x dims per rowid,
 *   codes[d] = round(x[d] / scale[d]); spill_rowids: Int32 (ascending), the second copies
 *   CREATE TABLE vector_coarse_lists (coarse INTEGER PRIMARY KEY, centroid BLOB)
 *   CREATE TABLE vector_code_scales (dim INTEGER PRIMARY KEY, scale REAL)
 */
import type Database from 'better-sqlite3';
import { spillLists, type ListLevels } from './vector-spill.ts';
import { NearestCentroid } from './vector-nearest.ts';
import { assignFrozen, frozenLevels, type FrozenLists } from './vector-frozen.ts';

export const PARTITION_FROM = 20_000;
const KMEANS_ITERATIONS = 6;
const SAMPLE_PER_LIST = 32;
/** Fine lists a coarse list is split into, and the members each is trained on (splitList). */
const FINE_LISTS = 16;
const FINE_SAMPLE = 8;

export const CREATE_VECTOR_PARTITIONS_SQL = `CREATE TABLE vector_partitions (
  list     INTEGER PRIMARY KEY,
  coarse   INTEGER NOT NULL,
  centroid BLOB NOT NULL,
  rowids   BLOB NOT NULL,
  vectors  BLOB NOT NULL,
  codes    BLOB NOT NULL,
  spill_rowids BLOB NOT NULL
);
CREATE TABLE vector_coarse_lists (
  coarse   INTEGER PRIMARY KEY,
  centroid BLOB NOT NULL
);
CREATE TABLE vector_code_scales (
  dim   INTEGER PRIMARY KEY,
  scale REAL NOT NULL
)`;

/** Codes are int8 in -CODE_MAX..CODE_MAX: symmetric, so a code is within half a step of its float either way. */
export const CODE_MAX = 127;
/** A stored int16 vector value is round(x * VECTOR_UNIT) of its float x (|x| <= 1: the vectors have unit length). */
export const VECTOR_UNIT = 32_767;

/** Per dimension, the float one code step stands for: the dimension's largest magnitude over CODE_MAX (1 when all are 0). */
export function codeScales(data: Float32Array, count: number, dims: number): Float64Array {
  const largest = new Float64Array(dims);
  for (let i = 0; i < count; i++) {
    for (let d = 0, o = i * dims; d < dims; d++, o++) {
      const x = Math.abs(data[o]!);
      if (x > largest[d]!) largest[d] = x;
    }
  }
  return largest.map((x) => (x > 0 ? x / CODE_MAX : 1));
}

function normalizeRow(a: Float32Array, o: number, dims: number): void {
  let n = 0;
  for (let d = 0; d < dims; d++) n += a[o + d]! * a[o + d]!;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < dims; d++) a[o + d]! /= n;
}

function copyRow(from: Float32Array, i: number, to: Float32Array, j: number, dims: number): void {
  to.set(from.subarray(i * dims, i * dims + dims), j * dims);
}

export interface PartitionPlan {
  lists: number;
  /** Positions (in rowid order) of the vectors the centroids are trained on; empty for one list. */
  samplePositions: number[];
}

/** How `count` vectors are partitioned: about sqrt(n)/2 lists, trained on an evenly spaced sample. */
export function partitionPlan(count: number): PartitionPlan {
  // about sqrt(n)/2 lists: half the assignment cost of sqrt(n) at the same recall (measured at 100k)
  const lists = count >= PARTITION_FROM ? Math.round(Math.sqrt(count) / 2) : 1;
  if (lists <= 1) return { lists, samplePositions: [] };
  const sampleSize = Math.min(count, lists * SAMPLE_PER_LIST);
  return { lists, samplePositions: Array.from({ length: sampleSize }, (_, s) => Math.floor((s * count) / sampleSize)) };
}

function trainCentroids(data: Float32Array, count: number, dims: number, lists: number): Float32Array {
  const { samplePositions } = partitionPlan(count);
  const sample = new Float32Array(samplePositions.length * dims);
  samplePositions.forEach((position, s) => copyRow(data, position, sample, s, dims));
  return trainCentroidsOnSample(sample, samplePositions.length, dims, lists);
}

/** Spherical k-means over the sample (row-major, `sampleSize` x `dims`). */
export function trainCentroidsOnSample(sample: Float32Array, sampleSize: number, dims: number, lists: number): Float32Array {
  const centroids = new Float32Array(lists * dims);
  for (let l = 0; l < lists; l++) copyRow(sample, Math.floor((l * sampleSize) / lists), centroids, l, dims);
  const assign = new Int32Array(sampleSize);
  for (let it = 0; it < KMEANS_ITERATIONS; it++) {
    const nearest = new NearestCentroid(centroids, lists, dims);
    for (let s = 0; s < sampleSize; s++) assign[s] = nearest.of(sample, s * dims);
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
  const { lists } = partitionPlan(count);
  const centroids = lists > 1 ? trainCentroids(data, count, dims, lists) : new Float32Array(dims);
  const listOf = new Int32Array(count);
  if (lists > 1) {
    const nearest = new NearestCentroid(centroids, lists, dims);
    for (let i = 0; i < count; i++) listOf[i] = nearest.of(data, i * dims);
  }
  return { lists, centroids, listOf };
}

/**
 * The vectors of vec_providers as the builder writes them (rowid order), with the
 * list of each when the embedding workers assigned it: 4 bytes per dimension, held
 * once (256 MB for a million 64-dimensional vectors, instead of a million row
 * objects read back). Without a given partitioning, write() partitions them itself.
 */
export class VectorCollector {
  private readonly vectors: Float32Array;
  private readonly rowids: Int32Array;
  private readonly listOf: Int32Array;
  private count = 0;
  private partitioning: { lists: number; centroids: Float32Array; nearest: NearestCentroid } | undefined;
  private frozen: FrozenLists | undefined;

  private readonly capacity: number;
  private readonly dims: number;
  constructor(
    capacity: number,
    dims: number,
  ) {
    this.capacity = capacity;
    this.dims = dims;
    this.vectors = new Float32Array(capacity * dims);
    this.rowids = new Int32Array(capacity);
    this.listOf = new Int32Array(capacity);
  }

  /** Centroids trained beforehand (partitionPlan's sample); add() then takes each vector's list. */
  setPartitioning(lists: number, centroids: Float32Array): void {
    this.partitioning = { lists, centroids, nearest: new NearestCentroid(centroids, lists, this.dims) };
  }

  get centroids(): { lists: number; centroids: Float32Array } | undefined {
    return this.partitioning;
  }

  add(rowid: number, vector: Float32Array, list?: number): void {
    if (this.count >= this.capacity) throw new Error(`more vectors than the ${this.capacity} published providers`);
    const { dims } = this;
    this.vectors.set(vector, this.count * dims);
    this.rowids[this.count] = rowid;
    if (this.partitioning) {
      this.listOf[this.count] = list ?? this.partitioning.nearest.of(this.vectors, this.count * dims);
    }
    this.count++;
  }

  /** Lists held fixed (vector-frozen.ts): write() assigns each vector to them, trains nothing and keeps every list. */
  setFrozen(frozen: FrozenLists): void {
    this.frozen = frozen;
  }

  /** Creates and fills vector_partitions, vector_coarse_lists and vector_code_scales (rowids ascending within each list). */
  write(db: Database.Database): { coarseLists: number; lists: number; vectors: number; spilled: number; spillFrom: number } {
    const { dims, count, frozen } = this;
    if (count !== this.capacity) throw new Error(`expected ${this.capacity} vectors, got ${count}`);
    let levels: ListLevels;
    if (frozen) levels = frozenLevels(frozen, assignFrozen(frozen, this.vectors, count));
    else {
      let { lists, centroids } = this.partitioning ?? { lists: 0, centroids: new Float32Array(0) };
      let listOf = this.listOf;
      if (!this.partitioning) ({ lists, centroids, listOf } = partitionVectors(this.vectors, count, dims));
      levels = this.fineLevels(lists, centroids, listOf);
    }
    const members = byList(levels.fineOf, levels.fineLists);
    const spill = spillLists(this.vectors, count, dims, levels, frozen?.spillFrom);
    const spilled = byList(spill.second, levels.fineLists);
    const scales = frozen?.scales ?? codeScales(this.vectors, count, dims);
    const inverse = scales.map((x) => 1 / x);
    db.exec(CREATE_VECTOR_PARTITIONS_SQL);
    const insert = db.prepare('INSERT INTO vector_partitions (list, coarse, centroid, rowids, vectors, codes, spill_rowids) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertCoarse = db.prepare('INSERT INTO vector_coarse_lists (coarse, centroid) VALUES (?, ?)');
    const insertScale = db.prepare('INSERT INTO vector_code_scales (dim, scale) VALUES (?, ?)');
    const rowidsOf = (chosen: Int32Array) => Buffer.from(Int32Array.from(chosen, (i) => this.rowids[i]!).buffer);
    db.transaction(() => {
      scales.forEach((scale, d) => insertScale.run(d, scale));
      for (let c = 0; c < levels.coarseLists; c++) {
        insertCoarse.run(c, Buffer.from(levels.coarseCentroids.slice(c * dims, c * dims + dims).buffer));
        for (let f = levels.fineStart[c]!; f < levels.fineStart[c + 1]!; f++) {
          const chosen = members.order.subarray(members.start[f], members.start[f + 1]);
          const { vectors, codes } = encodeVectors(this.vectors, chosen, dims, inverse);
          const centroid = levels.fineCentroids.slice(f * dims, f * dims + dims);
          const spillOf = spilled.order.subarray(spilled.start[f], spilled.start[f + 1]);
          insert.run(f, c, Buffer.from(centroid.buffer), rowidsOf(chosen), Buffer.from(vectors.buffer), Buffer.from(codes.buffer), rowidsOf(spillOf));
        }
      }
    })();
    return { coarseLists: levels.coarseLists, lists: levels.fineLists, vectors: count, spilled: spilled.order.length, spillFrom: spill.spillFrom };
  }

  /** Each coarse list split into fine lists (one when there is one coarse list), numbered in coarse order; empty ones left out. */
  private fineLevels(lists: number, centroids: Float32Array, listOf: Int32Array): ListLevels {
    const { dims, count } = this;
    const coarse = byList(listOf, lists);
    const fineStart = new Int32Array(lists + 1);
    const fineOf = new Int32Array(count);
    const fineCentroids: Float32Array[] = [];
    for (let c = 0; c < lists; c++) {
      const members = coarse.order.subarray(coarse.start[c], coarse.start[c + 1]);
      const coarseCentroid = centroids.slice(c * dims, c * dims + dims);
      const fine = lists > 1 ? splitList(this.vectors, members, dims) : { lists: 1, centroids: coarseCentroid, listOf: new Int32Array(members.length) };
      const used = new Uint8Array(fine.lists);
      for (const f of fine.listOf) used[f] = 1;
      const numbered = new Int32Array(fine.lists);
      for (let f = 0; f < fine.lists; f++) {
        if (!used[f]) continue;
        numbered[f] = fineCentroids.length;
        fineCentroids.push(fine.centroids.slice(f * dims, f * dims + dims));
      }
      members.forEach((i, j) => (fineOf[i] = numbered[fine.listOf[j]!]!));
      fineStart[c + 1] = fineCentroids.length;
    }
    const fineLists = fineCentroids.length;
    const flat = new Float32Array(fineLists * dims);
    fineCentroids.forEach((row, f) => flat.set(row, f * dims));
    return { coarseLists: lists, coarseCentroids: centroids, fineLists, fineCentroids: flat, fineStart, fineOf };
  }
}

/**
 * The stored forms of the vectors at `chosen` (row-major in `data`): int16 steps and
 * int8 codes (`inverse`: 1 / each dimension's scale; a code beyond CODE_MAX, which
 * frozen scales allow, is clamped).
 */
export function encodeVectors(data: Float32Array, chosen: ArrayLike<number>, dims: number, inverse: Float64Array): { vectors: Int16Array; codes: Int8Array } {
  const vectors = new Int16Array(chosen.length * dims);
  const codes = new Int8Array(chosen.length * dims);
  for (let j = 0; j < chosen.length; j++) {
    const i = chosen[j]!;
    for (let d = 0, o = j * dims; d < dims; d++, o++) {
      const x = data[i * dims + d]!;
      vectors[o] = Math.round(x * VECTOR_UNIT);
      codes[o] = Math.max(-CODE_MAX, Math.min(CODE_MAX, Math.round(x * inverse[d]!)));
    }
  }
  return { vectors, codes };
}

/** The positions i with listOf[i] = l, l by l, ascending within each (a counting sort; listOf[i] = -1: in none). */
function byList(listOf: Int32Array, lists: number): { order: Int32Array; start: Int32Array } {
  const start = new Int32Array(lists + 1);
  for (const l of listOf) if (l >= 0) start[l + 1]!++;
  for (let l = 0; l < lists; l++) start[l + 1]! += start[l]!;
  const fill = start.slice(0, lists);
  const order = new Int32Array(start[lists]!);
  listOf.forEach((l, i) => {
    if (l >= 0) order[fill[l]!++] = i;
  });
  return { order, start };
}

/**
 * A coarse list split by spherical k-means into up to FINE_LISTS lists, trained on
 * FINE_SAMPLE members a list (evenly spaced), every member then in its nearest.
 * Why: the long-tail queries' nearest providers are spread over many coarse lists
 * (a short query of common words is far from every provider), and the scan's budget
 * (what 12 coarse lists hold) caught 0.62 of the exact 50 nearest at 1,000,000
 * providers; the same budget spent on the nearest fine lists of the nearest coarse
 * lists catches 0.75 (100,000: 0.66 -> 0.80). Splitting costs the 1,000,000 build
 * 2.6 s; training on every member instead found a little more for eight times that.
 */
function splitList(data: Float32Array, members: Int32Array, dims: number): Partitioning {
  const lists = Math.max(1, Math.min(FINE_LISTS, Math.floor(members.length / FINE_SAMPLE)));
  const sampleSize = Math.min(members.length, lists * FINE_SAMPLE);
  const sample = new Float32Array(sampleSize * dims);
  for (let s = 0; s < sampleSize; s++) copyRow(data, members[Math.floor((s * members.length) / sampleSize)]!, sample, s, dims);
  const centroids = trainCentroidsOnSample(sample, sampleSize, dims, lists);
  const nearest = lists > 1 ? new NearestCentroid(centroids, lists, dims) : null;
  const listOf = members.map((i) => nearest?.of(data, i * dims) ?? 0);
  return { lists, centroids, listOf };
}
