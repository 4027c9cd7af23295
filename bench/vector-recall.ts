/**
 * Vector recall@k of the search's vector side against exact search: for each query,
 * the exact k nearest (cosine, full-precision vectors of vec_providers, the same
 * filters) versus what `vectorCandidates` returns. A returned item counts as a hit
 * when its exact distance is within the exact k-th distance (ties at the boundary
 * are not misses).
 */
import type { Snapshot } from '../src/query/snapshot.ts';
import { buildFilter } from '../src/query/filters.ts';
import { embedQuery } from '../src/search/query-embedder.ts';
import { CANDIDATE_WINDOW } from '../src/search/search.ts';
import { vectorCandidates } from '../src/search/vector-side.ts';
import type { BenchQuery } from './queries.ts';
import { round } from './stats.ts';
import { requestWords } from '../src/query/nl-query.ts';

export interface RecallResult {
  k: number;
  queries: number;
  /** mean recall@k over the queries that have a query vector */
  mean: number;
  min: number;
  /** queries whose text has no known word (no vector: nothing to recall) */
  skipped: number;
  unfiltered: number;
  filtered: number;
}

interface VectorTable {
  rowids: Int32Array;
  dims: number;
  data: Float32Array;
  index: Map<number, number>;
}

function loadVectors(snapshot: Snapshot): VectorTable {
  const rows = snapshot.db.prepare('SELECT rowid, embedding FROM vec_providers').raw().all() as [number, Buffer][];
  const dims = rows.length ? rows[0]![1].byteLength / 4 : 0;
  const data = new Float32Array(rows.length * dims);
  const rowids = new Int32Array(rows.length);
  const index = new Map<number, number>();
  rows.forEach(([rowid, blob], i) => {
    rowids[i] = rowid;
    index.set(rowid, i);
    data.set(new Float32Array(blob.buffer, blob.byteOffset, dims), i * dims);
  });
  return { rowids, dims, data, index };
}

function cosineDistance(table: VectorTable, i: number, q: Float32Array, qNorm: number): number {
  const { data, dims } = table;
  let dot = 0;
  let norm = 0;
  for (let d = 0, o = i * dims; d < dims; d++, o++) {
    dot += data[o]! * q[d]!;
    norm += data[o]! * data[o]!;
  }
  return 1 - dot / (Math.sqrt(norm) * qNorm || 1);
}

export async function measureVectorRecall(snapshot: Snapshot, queries: Pick<BenchQuery, 'q' | 'city' | 'categorySlug'>[], k: number): Promise<RecallResult> {
  const table = loadVectors(snapshot);
  const recalls: number[] = [];
  let skipped = 0;
  let filtered = 0;
  for (const query of queries) {
    const { vector } = await embedQuery(snapshot, requestWords(query.q));
    if (!vector) {
      skipped++;
      continue;
    }
    const filters = { ...(query.city ? { city: query.city } : {}), ...(query.categorySlug ? { categorySlug: query.categorySlug } : {}) };
    const filter = buildFilter(snapshot, filters);
    const allowed = snapshot.db
      .prepare(`SELECT p.rowid FROM published_providers p WHERE ${filter.where}`)
      .pluck()
      .all(filter.params) as number[];
    let qNorm = 0;
    for (const x of vector) qNorm += x * x;
    qNorm = Math.sqrt(qNorm);
    const exact = allowed
      .filter((rowid) => table.index.has(rowid))
      .map((rowid) => cosineDistance(table, table.index.get(rowid)!, vector, qNorm))
      .sort((a, b) => a - b);
    const expected = Math.min(k, exact.length);
    if (expected === 0) continue;
    const kth = exact[expected - 1]!;
    // what search uses: the top k of the vector side's candidate window
    const found = vectorCandidates(snapshot, vector, filter, Math.max(k, CANDIDATE_WINDOW)).slice(0, k);
    let hits = 0;
    for (const rowid of found) {
      const i = table.index.get(rowid);
      if (i !== undefined && cosineDistance(table, i, vector, qNorm) <= kth + 1e-6) hits++;
    }
    recalls.push(Math.min(1, hits / expected));
    if (filter.active) filtered++;
  }
  const mean = recalls.length ? recalls.reduce((a, b) => a + b, 0) / recalls.length : Number.NaN;
  return {
    k,
    queries: recalls.length,
    mean: round(mean, 4),
    min: round(recalls.length ? Math.min(...recalls) : Number.NaN, 4),
    skipped,
    unfiltered: recalls.length - filtered,
    filtered,
  };
}
