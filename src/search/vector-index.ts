/**
 * The vector side's in-memory index, one per snapshot: every published provider's
 * vector (100,000 x 64 dims = 25 MB) in IVF lists, scanned in process instead of
 * through the vec0 virtual table, whose full scan plus `rowid IN (filter)` cost
 * 15-90 ms per query at 100k (an exact scan in JS is ~5 ms, still over budget).
 *
 * The lists come from the snapshot's vector_partitions table (written by the
 * builder, src/snapshot/vector-partitions.ts).
 *  - a query scores the centroids and scans the nearest lists until it has looked
 *    at NPROBE lists and at least MIN_VISITED_FACTOR x k allowed providers, so a
 *    filter never leaves the window short;
 *  - a filter leaving few providers (EXACT_BELOW) is scanned exactly instead.
 * bench/vector-recall.ts measures recall@50 against exact search (target >= 0.95).
 * Scores are dot products of L2-normalized vectors (cosine), computed a chunk of
 * positions at a time by the WebAssembly kernel (vector-dot.ts); ties by rowid.
 */
import { dotAt } from '../snapshot/vector-partitions.ts';
import { allows, type FilterSet } from '../query/filter-set.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { TopK } from './top-k.ts';
import { CHUNK, dotKernel, dotKernelOn, type DotKernel } from './vector-dot.ts';
import { int32Array } from '../query/shared-arrays.ts';

const NPROBE = 12;
const MIN_VISITED_FACTOR = 8;
/** Below this many allowed providers an exact scan is as cheap as probing lists. */
const EXACT_BELOW = 10_000;

export interface VectorIndex {
  count: number;
  dims: number;
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

function fromPartitionsTable(snapshot: Snapshot, dims: number): Omit<VectorIndex, 'positionOf'> {
  const parts = snapshot.db.prepare('SELECT centroid, rowids, vectors FROM vector_partitions ORDER BY list').all() as {
    centroid: Buffer;
    rowids: Buffer;
    vectors: Buffer;
  }[];
  const lists = parts.length;
  const count = parts.reduce((n, p) => n + p.rowids.byteLength / 4, 0);
  const threads = snapshot.searchingThreads;
  const rowids = int32Array(count, threads);
  const kernel = dotKernel(count, dims, threads);
  const centroids = new Float32Array(lists * dims);
  const listStart = new Int32Array(lists + 1);
  let at = 0;
  parts.forEach((p, l) => {
    centroids.set(floats(p.centroid), l * dims);
    rowids.set(ints(p.rowids), at);
    const vectors = floats(p.vectors);
    for (let i = 0; i < vectors.length / dims; i++) kernel.vectors.set(vectors.subarray(i * dims, (i + 1) * dims), (at + i) * kernel.stride);
    at += p.rowids.byteLength / 4;
    listStart[l + 1] = at;
  });
  return { count, dims, rowids, kernel, centroids, lists, listStart };
}

export function vectorIndex(snapshot: Snapshot): VectorIndex {
  return snapshot.memo('vector-index', () => {
    const dims = snapshot.meta.embedderDims;
    const index = fromPartitionsTable(snapshot, dims);
    let maxRowid = 0;
    for (const r of index.rowids) if (r > maxRowid) maxRowid = r;
    const positionOf = int32Array(maxRowid + 1, snapshot.searchingThreads).fill(-1);
    index.rowids.forEach((r, p) => (positionOf[r] = p));
    return { ...index, positionOf };
  });
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
 * The best k of the given positions into `top`: positions are gathered a chunk at
 * a time, scored in one kernel call, then offered in the order given.
 */
class ChunkedScan {
  private n = 0;
  private readonly kernel: DotKernel;
  private readonly positions: Int32Array;
  private readonly rowids: Int32Array;
  private readonly top: TopK;
  constructor(index: VectorIndex, top: TopK) {
    this.kernel = index.kernel;
    this.positions = index.kernel.positions;
    this.rowids = index.rowids;
    this.top = top;
  }

  add(position: number): void {
    this.positions[this.n++] = position;
    if (this.n === CHUNK) this.flush();
  }

  flush(): void {
    const { positions, rowids, top } = this;
    const scores = this.kernel.scores;
    this.kernel.score(this.n);
    let threshold = top.threshold;
    for (let i = 0; i < this.n; i++) {
      const s = scores[i]!;
      if (s < threshold) continue;
      top.push(s, rowids[positions[i]!]!);
      threshold = top.threshold;
    }
    this.n = 0;
  }
}

/** The k nearest allowed providers: rowids nearest first. */
export function nearestRowids(index: VectorIndex, query: Float32Array, set: FilterSet | null, k: number): number[] {
  const { dims, positionOf, rowids } = index;
  index.kernel.query.set(query);
  const top = new TopK(k);
  const scan = new ChunkedScan(index, top);
  if (index.lists <= 1 || (set && set.rowids.length <= EXACT_BELOW)) {
    const count = set ? set.rowids.length : index.count;
    for (let i = 0; i < count; i++) {
      const r = set ? set.rowids[i]! : -1;
      const p = set ? (r < positionOf.length ? positionOf[r]! : -1) : i;
      if (p >= 0) scan.add(p);
    }
    scan.flush();
    return top.ids();
  }
  // Nearest lists first; stop after NPROBE lists once enough allowed providers were seen.
  const order = new TopK(index.lists);
  for (let l = 0; l < index.lists; l++) order.push(dotAt(index.centroids, l * dims, query, 0, dims), l);
  const allowed = set?.allowed;
  const enough = k * MIN_VISITED_FACTOR;
  let probed = 0;
  let visited = 0;
  for (const l of order.ids()) {
    if (probed >= NPROBE && visited >= enough) break;
    probed++;
    for (let p = index.listStart[l]!, end = index.listStart[l + 1]!; p < end; p++) {
      if (allowed && !allows(allowed, rowids[p]!)) continue;
      visited++;
      scan.add(p);
    }
  }
  scan.flush();
  return top.ids();
}
