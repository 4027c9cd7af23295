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
 * Scores are dot products of L2-normalized vectors (cosine); ties by rowid.
 */
import { dotAt } from '../snapshot/vector-partitions.ts';
import type { FilterSet } from '../query/filter-set.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { TopK } from './top-k.ts';

const NPROBE = 12;
const MIN_VISITED_FACTOR = 8;
/** Below this many allowed providers an exact scan is as cheap as probing lists. */
const EXACT_BELOW = 10_000;

export interface VectorIndex {
  count: number;
  dims: number;
  /** rowids in list order */
  rowids: Int32Array;
  /** count x dims, row-major, in list order */
  vectors: Float32Array;
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
  const rowids = new Int32Array(count);
  const vectors = new Float32Array(count * dims);
  const centroids = new Float32Array(lists * dims);
  const listStart = new Int32Array(lists + 1);
  let at = 0;
  parts.forEach((p, l) => {
    centroids.set(floats(p.centroid), l * dims);
    rowids.set(ints(p.rowids), at);
    vectors.set(floats(p.vectors), at * dims);
    at += p.rowids.byteLength / 4;
    listStart[l + 1] = at;
  });
  return { count, dims, rowids, vectors, centroids, lists, listStart };
}

export function vectorIndex(snapshot: Snapshot): VectorIndex {
  return snapshot.memo('vector-index', () => {
    const dims = snapshot.meta.embedderDims;
    const index = fromPartitionsTable(snapshot, dims);
    let maxRowid = 0;
    for (const r of index.rowids) if (r > maxRowid) maxRowid = r;
    const positionOf = new Int32Array(maxRowid + 1).fill(-1);
    index.rowids.forEach((r, p) => (positionOf[r] = p));
    return { ...index, positionOf };
  });
}

/** Dot product of the vector at `offset` with the query: four running sums the CPU overlaps (about 2x over one). */
function dotQuery(vectors: Float32Array, offset: number, query: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (const tail = dims & ~3; d < tail; d += 4) {
    s0 += vectors[offset + d]! * query[d]!;
    s1 += vectors[offset + d + 1]! * query[d + 1]!;
    s2 += vectors[offset + d + 2]! * query[d + 2]!;
    s3 += vectors[offset + d + 3]! * query[d + 3]!;
  }
  for (; d < dims; d++) s0 += vectors[offset + d]! * query[d]!;
  return s0 + s1 + (s2 + s3);
}

/** The k nearest allowed providers: rowids nearest first. */
export function nearestRowids(index: VectorIndex, query: Float32Array, set: FilterSet | null, k: number): number[] {
  const { dims, vectors, rowids, positionOf } = index;
  const top = new TopK(k);
  let threshold = -Infinity;
  if (index.lists <= 1 || (set && set.rowids.length <= EXACT_BELOW)) {
    const count = set ? set.rowids.length : index.count;
    for (let i = 0; i < count; i++) {
      const r = set ? set.rowids[i]! : rowids[i]!;
      const p = set ? (r < positionOf.length ? positionOf[r]! : -1) : i;
      if (p < 0) continue;
      const s = dotQuery(vectors, p * dims, query, dims);
      if (s < threshold) continue;
      top.push(s, r);
      threshold = top.threshold;
    }
    return top.sorted().map((e) => e.id);
  }
  // Nearest lists first; stop after NPROBE lists once enough allowed providers were seen.
  const order = new TopK(index.lists);
  for (let l = 0; l < index.lists; l++) order.push(dotAt(index.centroids, l * dims, query, 0, dims), l);
  const allowed = set?.allowed;
  const enough = k * MIN_VISITED_FACTOR;
  let probed = 0;
  let visited = 0;
  for (const { id: l } of order.sorted()) {
    if (probed >= NPROBE && visited >= enough) break;
    probed++;
    for (let p = index.listStart[l]!, end = index.listStart[l + 1]!; p < end; p++) {
      const r = rowids[p]!;
      if (allowed && allowed[r] !== 1) continue;
      visited++;
      const s = dotQuery(vectors, p * dims, query, dims);
      if (s < threshold) continue;
      top.push(s, r);
      threshold = top.threshold;
    }
  }
  return top.sorted().map((e) => e.id);
}
