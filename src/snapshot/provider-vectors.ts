/**
 * vec_providers: one embedding per published provider, rowid = providers.rowid.
 *
 * Runs after the rows are in: texts are read back from the snapshot in rowid order
 * and in batches, so a million providers never sit in memory as texts. The
 * built-in embedder is first fitted on a sample of the same texts (the fit keeps a
 * seeded reservoir sample, see embedder-builtin-fit.ts) and stored in the
 * snapshot; an external embedder (EMBEDDER_URL) is used as it is.
 */
import type Database from 'better-sqlite3';
import type { Embedder } from './embedder.ts';
import { BuiltinEmbedder, saveModel } from './embedder-builtin.ts';
import { fitBuiltinEmbedder } from './embedder-builtin-fit.ts';
import { createEmbedPool, defaultPoolSize, type EmbeddedBatch } from './embed-pool.ts';
import { createVecSql } from './snapshot-schema.ts';
import { namesOfCategories, type CategoryNames } from './snapshot-writer.ts';
import { partitionPlan, trainCentroidsOnSample, VectorCollector } from './vector-partitions.ts';
import type { FrozenLists } from './vector-frozen.ts';

const BATCH = 1_000;
// Below this many published providers, starting worker threads costs more than it saves.
const POOL_THRESHOLD = 20_000;

/** The text columns of a published provider, as the embedder and search_postings read them. */
export interface TextRow {
  rowid: number;
  company_name: string;
  tagline: string;
  description: string;
  capability_tags: string;
  industry_focus: string;
  city: string | null;
  province: string | null;
  category_ids: string | null;
}

export const TEXT_COLUMNS = `p.rowid AS rowid, p.company_name, p.tagline, p.description, p.capability_tags, p.industry_focus,
  p.city, p.province,
  (SELECT group_concat(pc.category_id, char(31)) FROM provider_categories pc WHERE pc.provider_rowid = p.rowid) AS category_ids`;

/** The text a provider is embedded from: what a searcher would describe it by. */
export function providerText(row: TextRow, categoryNames: CategoryNames): string {
  const categories = row.category_ids ? namesOfCategories(categoryNames, row.category_ids.split('\x1f')) : [];
  const list = (json: string) => (JSON.parse(json) as string[]).join(', ');
  return [
    row.company_name,
    row.tagline,
    row.description,
    list(row.capability_tags),
    list(row.industry_focus),
    categories.join(', '),
    [row.city, row.province].filter(Boolean).join(', '),
  ]
    .filter((part) => part.length > 0)
    .join('. ');
}

/** Documents the built-in embedder is fitted on (its own default sample size). */
const FIT_SAMPLE = 20_000;

/**
 * An evenly spaced sample of the published providers' texts (every n-th by rowid),
 * so a million-provider build reads back 20,000 texts for the fit, not all of them.
 */
export function* fitSample(db: Database.Database, categoryNames: CategoryNames): Generator<string> {
  const { n } = db.prepare('SELECT count(*) AS n FROM published_providers').get() as { n: number };
  const stride = Math.max(1, Math.ceil(n / FIT_SAMPLE));
  // Rowids first (integers only, cheap), then the texts of the chosen ones in batches.
  const chosen: number[] = [];
  let i = 0;
  for (const rowid of db.prepare('SELECT rowid FROM published_providers ORDER BY rowid').pluck().iterate() as IterableIterator<number>) {
    if (i++ % stride === 0) chosen.push(rowid);
  }
  const texts = db.prepare(
    `SELECT ${TEXT_COLUMNS} FROM published_providers p WHERE p.rowid IN (SELECT value FROM json_each(?)) ORDER BY p.rowid`,
  );
  for (let start = 0; start < chosen.length; start += BATCH) {
    const rows = texts.all(JSON.stringify(chosen.slice(start, start + BATCH))) as TextRow[];
    for (const row of rows) yield providerText(row, categoryNames);
  }
}

/** A fit started beside the build (embedder-fit-start.ts). */
export interface BuiltinFit {
  /** The fitted model; a worker's failure falls back to fitting on this thread. */
  readonly embedder: Promise<BuiltinEmbedder>;
  cancel(): Promise<void>;
}

export interface VectorResult {
  name: string;
  dims: number;
  count: number;
  /** Threads that embedded (1 = the main thread or an external service). */
  threads: number;
  /** The vectors as written, for vector_partitions. */
  partitions: VectorCollector;
}

/**
 * Fits (when `external` is null; or takes the fit started earlier, embedder-fit-start.ts)
 * or uses the given embedder, and fills vec_providers. `frozen`: the vector lists to
 * assign the vectors to (vector-frozen.ts) instead of training new ones.
 * `onProgress(done)` is called after each batch.
 */
export async function writeProviderVectors(
  db: Database.Database,
  external: Embedder | null,
  categoryNames: CategoryNames,
  onProgress?: (phase: 'fit' | 'embeddings', done: number) => void,
  threads?: number,
  started?: BuiltinFit,
  frozen?: FrozenLists,
): Promise<VectorResult> {
  let embedder: Embedder;
  if (external) embedder = external;
  else {
    onProgress?.('fit', 0);
    const builtin = started ? await started.embedder : fitBuiltinEmbedder(fitSample(db, categoryNames));
    saveModel(db, builtin);
    embedder = builtin;
  }
  db.exec(createVecSql(embedder.dims));

  const { n: published } = db.prepare('SELECT count(*) AS n FROM published_providers').get() as { n: number };
  const embed = await batchEmbedder(embedder, threads ?? (published >= POOL_THRESHOLD ? defaultPoolSize() : 1));
  const partitions = new VectorCollector(published, embedder.dims);
  const page = db.prepare(`SELECT ${TEXT_COLUMNS} FROM published_providers p WHERE p.rowid > ? ORDER BY p.rowid LIMIT ${BATCH}`);
  const insert = db.prepare('INSERT INTO vec_providers (rowid, embedding) VALUES (?, ?)');
  const write = (rows: TextRow[], { vectors, listOf }: EmbeddedBatch) => {
    if (vectors.length !== rows.length) {
      throw new Error(`embedder ${embedder.name} returned ${vectors.length} vectors for ${rows.length} texts`);
    }
    db.transaction(() => {
      rows.forEach((row, i) => {
        const vector = vectors[i]!;
        if (vector.length !== embedder.dims) {
          throw new Error(`embedder ${embedder.name} returned a ${vector.length}-dimensional vector; expected ${embedder.dims}`);
        }
        // vec0 wants an integer rowid; better-sqlite3 binds plain numbers as REAL, so BigInt.
        insert.run(BigInt(row.rowid), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
        partitions.add(row.rowid, vector, listOf?.[i]);
      });
    })();
    count += rows.length;
    onProgress?.('embeddings', count);
  };

  // Batches in flight, oldest first: read ahead while the pool embeds, write in rowid order.
  const inFlight: Array<{ rows: TextRow[]; vectors: Promise<EmbeddedBatch> }> = [];
  let after = 0;
  let count = 0;
  try {
    // With worker threads, train the IVF centroids first so that the workers assign each
    // vector to its list as they embed it (the main thread is busy writing).
    if (frozen) partitions.setFrozen(frozen);
    else if (embed.setCentroids) await trainPartitions(db, categoryNames, embed, published, embedder.dims, partitions);
    for (;;) {
      const rows = page.all(after) as TextRow[];
      if (rows.length > 0) {
        after = rows[rows.length - 1]!.rowid;
        const vectors = embed.run(rows.map((row) => providerText(row, categoryNames)));
        vectors.catch(() => {}); // awaited below, in order; this only avoids an unhandled rejection meanwhile
        inFlight.push({ rows, vectors });
      }
      if (inFlight.length === 0) break;
      if (rows.length > 0 && inFlight.length < embed.parallel * 2) continue;
      const oldest = inFlight.shift()!;
      write(oldest.rows, await oldest.vectors);
    }
  } finally {
    await embed.close();
  }
  return { name: embedder.name, dims: embedder.dims, count, threads: embed.threads, partitions };
}

/**
 * Embeds the vectors partitionPlan samples (the same vectors the pass over all rows
 * makes, so the same centroids as partitioning afterwards), trains the centroids and
 * hands them to the workers and the collector.
 */
async function trainPartitions(
  db: Database.Database,
  categoryNames: CategoryNames,
  embed: BatchEmbedder,
  published: number,
  dims: number,
  partitions: VectorCollector,
): Promise<void> {
  const { lists, samplePositions } = partitionPlan(published);
  if (lists <= 1) return;
  const chosen: number[] = [];
  let position = 0;
  for (const rowid of db.prepare('SELECT rowid FROM published_providers ORDER BY rowid').pluck().iterate() as IterableIterator<number>) {
    if (position++ === samplePositions[chosen.length]) chosen.push(rowid);
  }
  const texts = db.prepare(
    `SELECT ${TEXT_COLUMNS} FROM published_providers p WHERE p.rowid IN (SELECT value FROM json_each(?)) ORDER BY p.rowid`,
  );
  const batches: Array<Promise<EmbeddedBatch>> = [];
  for (let start = 0; start < chosen.length; start += BATCH) {
    const rows = texts.all(JSON.stringify(chosen.slice(start, start + BATCH))) as TextRow[];
    batches.push(embed.run(rows.map((row) => providerText(row, categoryNames))));
  }
  const sample = new Float32Array(chosen.length * dims);
  let s = 0;
  for (const batch of await Promise.all(batches)) for (const vector of batch.vectors) sample.set(vector, s++ * dims);
  const centroids = trainCentroidsOnSample(sample, chosen.length, dims, lists);
  partitions.setPartitioning(lists, centroids);
  embed.setCentroids!(centroids, lists);
}

interface BatchEmbedder {
  run(texts: string[]): Promise<EmbeddedBatch>;
  /** Only worker pools: they assign vectors to lists from then on. */
  setCentroids?(centroids: Float32Array, lists: number): void;
  /** Batches worth keeping in flight. */
  parallel: number;
  threads: number;
  close(): Promise<void>;
}

/** Worker threads for the built-in embedder (when threads > 1), the embedder itself otherwise. */
async function batchEmbedder(embedder: Embedder, threads: number): Promise<BatchEmbedder> {
  if (embedder instanceof BuiltinEmbedder) {
    const size = threads;
    if (size > 1) {
      try {
        const pool = await createEmbedPool(embedder, size);
        return {
          run: (texts) => pool.embed(texts),
          setCentroids: (centroids, lists) => pool.setCentroids(centroids, lists),
          parallel: pool.size,
          threads: pool.size,
          close: () => pool.close(),
        };
      } catch (error) {
        process.emitWarning(`embedding on one thread: worker threads failed to start (${(error as Error).message})`);
      }
    }
    return {
      run: async (texts) => ({ vectors: texts.map((t) => embedder.embedDocumentSync(t)) }),
      parallel: 1,
      threads: 1,
      close: async () => {},
    };
  }
  return { run: async (texts) => ({ vectors: await embedder.embedDocuments(texts) }), parallel: 1, threads: 1, close: async () => {} };
}
