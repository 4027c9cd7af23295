/**
 * The vector lists as the last full build left them (vector_coarse_lists, the fine
 * centroids of vector_partitions, vector_code_scales, snapshot_meta.vector_spill_from),
 * held fixed until the next full build: an incremental build (build-incremental.ts)
 * and a build given frozen statistics (frozen-stats.ts) put each new vector in the
 * nearest coarse list and there in the nearest of its fine lists, code it with the
 * frozen scales, and give it a second list when its residual is as large as those
 * the full build gave one (vector-spill.ts). No list is trained again, none is dropped.
 */
import type Database from 'better-sqlite3';
import { NearestCentroid } from './vector-nearest.ts';
import type { ListLevels } from './vector-spill.ts';

export interface FrozenLists {
  dims: number;
  coarseLists: number;
  coarseCentroids: Float32Array;
  fineLists: number;
  fineCentroids: Float32Array;
  fineStart: Int32Array;
  scales: Float64Array;
  /** the residual norm from which a vector gets a second list */
  spillFrom: number;
}

export function readFrozenLists(db: Database.Database, dims: number): FrozenLists {
  const coarse = db.prepare('SELECT centroid FROM vector_coarse_lists ORDER BY coarse').pluck().all() as Buffer[];
  const fine = db.prepare('SELECT coarse, centroid FROM vector_partitions ORDER BY list').all() as { coarse: number; centroid: Buffer }[];
  const floats = (rows: Buffer[]) => {
    const out = new Float32Array(rows.length * dims);
    rows.forEach((b, i) => out.set(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)), i * dims));
    return out;
  };
  const fineStart = new Int32Array(coarse.length + 1);
  for (const f of fine) fineStart[f.coarse + 1]!++;
  for (let c = 0; c < coarse.length; c++) fineStart[c + 1]! += fineStart[c]!;
  const spill = db.prepare("SELECT value FROM snapshot_meta WHERE key = 'vector_spill_from'").pluck().get() as string | undefined;
  return {
    dims,
    coarseLists: coarse.length,
    coarseCentroids: floats(coarse),
    fineLists: fine.length,
    fineCentroids: floats(fine.map((f) => f.centroid)),
    fineStart,
    scales: Float64Array.from(db.prepare('SELECT scale FROM vector_code_scales ORDER BY dim').pluck().all() as number[]),
    spillFrom: spill === undefined ? Infinity : Number(spill),
  };
}

/** The fine list of each vector (row-major in `data`): nearest coarse centroid, then the nearest of its fine lists. */
export function assignFrozen(lists: FrozenLists, data: Float32Array, count: number): Int32Array {
  const { dims } = lists;
  const coarse = new NearestCentroid(lists.coarseCentroids, lists.coarseLists, dims);
  const fineOfCoarse = new Map<number, NearestCentroid>();
  const fineOf = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const c = lists.coarseLists > 1 ? coarse.of(data, i * dims) : 0;
    const from = lists.fineStart[c]!;
    const n = lists.fineStart[c + 1]! - from;
    let nearest = fineOfCoarse.get(c);
    if (!nearest) {
      nearest = new NearestCentroid(lists.fineCentroids.slice(from * dims, (from + n) * dims), n, dims);
      fineOfCoarse.set(c, nearest);
    }
    fineOf[i] = from + (n > 1 ? nearest.of(data, i * dims) : 0);
  }
  return fineOf;
}

/** The levels spillLists needs, for vectors assigned by assignFrozen. */
export function frozenLevels(lists: FrozenLists, fineOf: Int32Array): ListLevels {
  return { coarseLists: lists.coarseLists, coarseCentroids: lists.coarseCentroids, fineLists: lists.fineLists, fineCentroids: lists.fineCentroids, fineStart: lists.fineStart, fineOf };
}
