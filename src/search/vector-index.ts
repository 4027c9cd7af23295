/**
 * The vector side's in-memory index, one per snapshot: every published provider's
 * vector (100,000 x 64 dims = 25 MB) in IVF lists, scanned in process instead of
 * through the vec0 virtual table, whose full scan plus `rowid IN (filter)` cost
 * 15-90 ms per query at 100k (an exact scan in JS is ~5 ms, still over budget).
 *
 * The lists come from the snapshot's vector_partitions table (written by the
 * builder, src/snapshot/vector-partitions.ts). A query scores the centroids and
 *  - unfiltered, scans the nearest lists until it has looked at NPROBE lists and
 *    at least MIN_VISITED_FACTOR x k providers (one list: an exact scan);
 *  - filtered, scans the filter's providers of the nearest lists (grouped by list
 *    once per filter set, vector-filter-lists.ts) until it has looked at as many
 *    as an unfiltered query looks at, and at least MIN_FILTERED_VISITS: a filter
 *    leaving no more than that is scanned whole, exactly. Testing every member of
 *    the nearest lists against the filter instead spent the scan on providers the
 *    filter drops (1,000,000 providers: recall@50 of the long-tail queries with a
 *    city 0.59, with a category 0.49; grouped, 0.92 / 0.88 in about the same time).
 * bench/vector-recall.ts measures recall@50 against exact search (target >= 0.95).
 * Scores are dot products of L2-normalized vectors (cosine), computed a chunk of
 * positions at a time by the WebAssembly kernel (vector-dot.ts); ties by rowid.
 *
 * A scan reads each visited vector's int8 codes first and its float32 vector only
 * when the codes' score, give or take its error bound, could place it among the k
 * best (CodeScan): the answer is the float32 scan's, for a quarter of the bytes.
 */
import { CODE_MAX, dotAt } from '../snapshot/vector-partitions.ts';
import type { FilterSet } from '../query/filter-set.ts';
import { filterLists } from './vector-filter-lists.ts';
import type Database from 'better-sqlite3';
import type { Snapshot } from '../query/snapshot.ts';
import { TopK } from './top-k.ts';
import { CHUNK, dotKernel, dotKernelOn, type DotKernel } from './vector-dot.ts';
import { int32Array } from '../query/shared-arrays.ts';

const NPROBE = 12;
const MIN_VISITED_FACTOR = 8;
/** Fewest providers a filtered query looks at: a filter leaving this many or fewer is scanned exactly. */
const MIN_FILTERED_VISITS = 10_000;

export interface VectorIndex {
  count: number;
  dims: number;
  /** per dimension, the float a code step stands for: a vector's x[d] is codes[d] x codeScale[d], give or take half a step */
  codeScale: Float64Array;
  /** rowids in list order */
  rowids: Int32Array;
  /** the vectors in list order (kernel.vectors, row-major, kernel.stride apart) and their dot products */
  kernel: DotKernel;
  /** position of a rowid in `rowids`, -1 when it has no vector */
  positionOf: Int32Array;
  /** lists x dims */
  centroids: Float32Array;
  lists: number;
  /** list l holds positions listStart[l] .. listStart[l + 1] - 1 */
  listStart: Int32Array;
}

const floats = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const ints = (b: Buffer) => new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/** Rows of `dims` values into `to` from row `at` on, `stride` apart (one copy when they are packed alike). */
function copyRows<T extends Float32Array | Int8Array>(from: T, to: T, at: number, dims: number, stride: number): void {
  if (stride === dims) to.set(from, at * stride);
  else for (let i = 0; i < from.length / dims; i++) to.set(from.subarray(i * dims, (i + 1) * dims), (at + i) * stride);
}

function fromPartitionsTable(db: Database.Database, dims: number, threads: number): Omit<VectorIndex, 'positionOf'> {
  const parts = db.prepare('SELECT centroid, rowids, vectors, codes FROM vector_partitions ORDER BY list').all() as {
    centroid: Buffer;
    rowids: Buffer;
    vectors: Buffer;
    codes: Buffer;
  }[];
  const codeScale = Float64Array.from(db.prepare('SELECT scale FROM vector_code_scales ORDER BY dim').pluck().all() as number[]);
  const lists = parts.length;
  const count = parts.reduce((n, p) => n + p.rowids.byteLength / 4, 0);
  const rowids = int32Array(count, threads);
  const kernel = dotKernel(count, dims, threads);
  const centroids = new Float32Array(lists * dims);
  const listStart = new Int32Array(lists + 1);
  let at = 0;
  parts.forEach((p, l) => {
    centroids.set(floats(p.centroid), l * dims);
    rowids.set(ints(p.rowids), at);
    copyRows(floats(p.vectors), kernel.vectors, at, dims, kernel.stride);
    copyRows(new Int8Array(p.codes.buffer, p.codes.byteOffset, p.codes.byteLength), kernel.codes, at, dims, kernel.codeStride);
    at += p.rowids.byteLength / 4;
    listStart[l + 1] = at;
  });
  return { count, dims, codeScale, rowids, kernel, centroids, lists, listStart };
}

/** The index of a snapshot file's vector_partitions and vector_code_scales (on shared memory when threads > 1). */
export function loadVectorIndex(db: Database.Database, dims: number, threads: number): VectorIndex {
  const index = fromPartitionsTable(db, dims, threads);
  let maxRowid = 0;
  for (const r of index.rowids) if (r > maxRowid) maxRowid = r;
  const positionOf = int32Array(maxRowid + 1, threads).fill(-1);
  index.rowids.forEach((r, p) => (positionOf[r] = p));
  return { ...index, positionOf };
}

export function vectorIndex(snapshot: Snapshot): VectorIndex {
  return snapshot.memo('vector-index', () => loadVectorIndex(snapshot.db, snapshot.meta.embedderDims, snapshot.searchingThreads));
}

/**
 * The index as another thread of this process receives it (postMessage): with
 * searchingThreads > 1 its vectors (the kernel's memory), rowids and positions are
 * shared memory, so the message carries references, not copies (the centroids and
 * list bounds, a few KB, are copied).
 */
export type SharedVectorIndex = Omit<VectorIndex, 'kernel'> & { memory: WebAssembly.Memory };

export function sharedVectorIndex(index: VectorIndex): SharedVectorIndex {
  const { kernel, ...rest } = index;
  return { ...rest, memory: kernel.memory };
}

/** A search thread's view of the shared index, scoring in its own scratch slot. */
export function vectorIndexOn(shared: SharedVectorIndex, slot: number): VectorIndex {
  const { memory, ...rest } = shared;
  return { ...rest, kernel: dotKernelOn(memory, shared.count, shared.dims, slot) };
}

/**
 * The best k of the given positions by float32 score, read in two passes.
 *
 * Pass 1 (add, a chunk per kernel call): every position's code score A, an integer
 * with S ~ A / T for the float32 score S (T the query's int16 scale). The query
 * sets, in S's units, how far A / T can be from S:
 *   E = 0.5 * sum_d |w[d]|  +  0.5 * CODE_MAX * dims / T,   w[d] = q[d] * codeScale[d]
 * (each code is within half a step of its float; each int16 query value within half
 * a unit of w[d] * T). The k-th best S is at least the k-th best A / T minus E, so a
 * position can be among the k best only if its A / T >= (k-th best A) / T - 2E:
 * pass 1 keeps those, against the k-th best code score so far (it only rises).
 * Pass 2 (finish): the kept positions' float32 scores, best k by (score, rowid).
 * Measured on 1,000 long-tail queries, pass 2 scores 230 (100,000 providers) and 284
 * (1,000,000) positions at the median, at most 562, of the 7,000-22,000 visited.
 */
class CodeScan {
  private n = 0;
  private readonly kernel: DotKernel;
  private readonly rowids: Int32Array;
  private readonly codeTop: TopK;
  /** 2E in code-score units */
  private readonly margin: number;
  private kept = new Int32Array(1024);
  private keptScores = new Int32Array(1024);
  private keptCount = 0;
  constructor(index: VectorIndex, query: Float32Array, k: number) {
    this.kernel = index.kernel;
    this.rowids = index.rowids;
    this.codeTop = new TopK(k);
    const { dims, codeScale } = index;
    const w = new Float64Array(dims);
    let largest = 0;
    let sum = 0;
    for (let d = 0; d < dims; d++) {
      w[d] = query[d]! * codeScale[d]!;
      largest = Math.max(largest, Math.abs(w[d]!));
      sum += Math.abs(w[d]!);
    }
    const scale = largest > 0 ? 32_767 / largest : 1;
    const query16 = this.kernel.query16;
    query16.fill(0);
    for (let d = 0; d < dims; d++) query16[d] = Math.round(w[d]! * scale);
    // E in S's units, plus 1e-6 for the float32 rounding of the scores pass 2 compares
    const bound = 0.5 * sum + (0.5 * CODE_MAX * dims) / scale + 1e-6;
    this.margin = 2 * bound * scale;
  }

  add(position: number): void {
    this.kernel.positions[this.n++] = position;
    if (this.n === CHUNK) this.flush();
  }

  private flush(): void {
    const { positions, codeScores } = this.kernel;
    this.kernel.scoreCodes(this.n);
    const top = this.codeTop;
    let cut = top.threshold - this.margin;
    for (let i = 0; i < this.n; i++) {
      const a = codeScores[i]!;
      if (a < cut) continue;
      top.push(a, positions[i]!);
      cut = top.threshold - this.margin;
      if (this.keptCount === this.kept.length) this.makeRoom(cut);
      this.kept[this.keptCount] = positions[i]!;
      this.keptScores[this.keptCount++] = a;
    }
    this.n = 0;
  }

  /** Drops kept positions the cut has passed; grows the arrays when that frees less than half. */
  private makeRoom(cut: number): void {
    let at = 0;
    for (let i = 0; i < this.keptCount; i++) {
      if (this.keptScores[i]! < cut) continue;
      this.kept[at] = this.kept[i]!;
      this.keptScores[at++] = this.keptScores[i]!;
    }
    this.keptCount = at;
    if (at * 2 > this.kept.length) {
      const kept = new Int32Array(this.kept.length * 2);
      const keptScores = new Int32Array(this.kept.length * 2);
      kept.set(this.kept);
      keptScores.set(this.keptScores);
      this.kept = kept;
      this.keptScores = keptScores;
    }
  }

  /** The float32 scores of the kept positions that can still be among the k best, into `top`. */
  finish(top: TopK): void {
    if (this.n > 0) this.flush();
    const { positions, scores } = this.kernel;
    const cut = this.codeTop.threshold - this.margin;
    let m = 0;
    const score = () => {
      this.kernel.score(m);
      for (let i = 0; i < m; i++) top.push(scores[i]!, this.rowids[positions[i]!]!);
      m = 0;
    };
    for (let i = 0; i < this.keptCount; i++) {
      if (this.keptScores[i]! < cut) continue;
      positions[m++] = this.kept[i]!;
      if (m === CHUNK) score();
    }
    score();
  }
}

/** The k nearest allowed providers: rowids nearest first. */
export function nearestRowids(index: VectorIndex, query: Float32Array, set: FilterSet | null, k: number): number[] {
  const { dims } = index;
  index.kernel.query.set(query);
  const scan = new CodeScan(index, query, k);
  const order = new TopK(index.lists);
  for (let l = 0; l < index.lists; l++) order.push(dotAt(index.centroids, l * dims, query, 0, dims), l);
  if (set) probeFiltered(index, set, order.ids(), scan, Math.max(MIN_FILTERED_VISITS, Math.round((index.count * NPROBE) / index.lists)));
  else probe(index, order.ids(), scan, k * MIN_VISITED_FACTOR);
  const top = new TopK(k);
  scan.finish(top);
  return top.ids();
}

/** Nearest lists first: NPROBE lists, and more while fewer than `enough` providers were seen. */
function probe(index: VectorIndex, order: number[], scan: CodeScan, enough: number): void {
  let probed = 0;
  let visited = 0;
  for (const l of order) {
    if (probed >= NPROBE && visited >= enough) break;
    probed++;
    const from = index.listStart[l]!;
    const end = index.listStart[l + 1]!;
    for (let p = from; p < end; p++) scan.add(p);
    visited += end - from;
  }
}

/** Nearest lists first, each list's providers that pass the filter, until `enough` were seen. */
function probeFiltered(index: VectorIndex, set: FilterSet, order: number[], scan: CodeScan, enough: number): void {
  const { positions, start } = filterLists(index, set);
  let visited = 0;
  for (const l of order) {
    if (visited >= enough) break;
    const from = start[l]!;
    const end = start[l + 1]!;
    for (let i = from; i < end; i++) scan.add(positions[i]!);
    visited += end - from;
  }
}
