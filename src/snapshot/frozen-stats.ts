/**
 * The corpus statistics a full build computes and the builds after it keep until
 * the next full build ("frozen"): the bm25 statistics (documents, their total
 * length, each term's document frequency: bm25_frozen_df), the built-in embedder's
 * model, and the vector lists (centroids, code scales, spill threshold:
 * vector-frozen.ts). An incremental build (build-incremental.ts) applies a change
 * with them; buildSnapshot({ frozenFrom }) builds the whole dataset with them, which
 * is what an incremental build must equal (tests/snapshot/incremental*.test.ts).
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { loadModel, type BuiltinEmbedder } from './embedder-builtin.ts';
import type { Bm25Stats } from './search-postings.ts';
import { readFrozenLists, type FrozenLists } from './vector-frozen.ts';

export interface FrozenStats {
  file: string;
  /** the snapshot id of the full build the statistics come from */
  fullBuildId: string;
  bm25: Bm25Stats;
  /** the built-in embedder's model; null when an external embedder made the vectors */
  model: BuiltinEmbedder | null;
  lists: FrozenLists;
  meta: Map<string, string>;
}

export function metaMap(db: Database.Database): Map<string, string> {
  return new Map((db.prepare('SELECT key, value FROM snapshot_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
}

/** The frozen bm25 statistics of an open snapshot (df looked up in bm25_frozen_df as asked). */
export function frozenBm25(db: Database.Database, meta: Map<string, string>, inMemory: boolean): Bm25Stats {
  const documents = Number(meta.get('bm25_documents'));
  const totalLength = Number(meta.get('bm25_length'));
  if (inMemory) {
    const df = new Map((db.prepare('SELECT term, df FROM bm25_frozen_df').raw().all() as [string, number][]));
    return { documents, totalLength, df: (term) => df.get(term) };
  }
  const get = db.prepare('SELECT df FROM bm25_frozen_df WHERE term = ?').pluck();
  return { documents, totalLength, df: (term) => get.get(term) as number | undefined };
}

/** Reads the frozen statistics of a snapshot file (whole, into memory). */
export function readFrozenStats(file: string): FrozenStats {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    sqliteVec.load(db);
    const meta = metaMap(db);
    return {
      file,
      fullBuildId: meta.get('full_build_id') ?? meta.get('snapshot_id')!,
      bm25: frozenBm25(db, meta, true),
      model: loadModel(db),
      lists: readFrozenLists(db, Number(meta.get('embedder_dims'))),
      meta,
    };
  } finally {
    db.close();
  }
}
