/**
 * Embedding a million provider texts with the built-in model is pure CPU work: a
 * pool of worker threads (one per core) does it in parallel while the main thread
 * reads the next batches from the snapshot and writes the finished vectors.
 *
 * Workers run the TypeScript file as it is (Node strips the types); when a
 * worker cannot start, the caller falls back to embedding on the main thread.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BuiltinEmbedder } from './embedder-builtin.ts';

export interface EmbeddedBatch {
  vectors: Float32Array[];
  /** The IVF list of each vector, once setCentroids was called. */
  listOf?: Int32Array;
}

export interface EmbedPool {
  readonly size: number;
  embed(texts: string[]): Promise<EmbeddedBatch>;
  /** From now on, batches also come back with each vector's nearest centroid. */
  setCentroids(centroids: Float32Array, lists: number): void;
  close(): Promise<void>;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

export async function createEmbedPool(embedder: BuiltinEmbedder, size: number): Promise<EmbedPool> {
  const model = embedder.serialize();
  const dims = embedder.dims;
  const workers: Worker[] = [];
  const idle: Worker[] = [];
  const waiting: Array<(w: Worker) => void> = [];
  const pending = new Map<number, { resolve: (v: EmbeddedBatch) => void; reject: (e: Error) => void; worker: Worker }>();
  let nextId = 0;
  let failure: Error | undefined;

  const release = (worker: Worker) => {
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  };
  const fail = (error: Error) => {
    failure ??= error;
    for (const [id, job] of pending) {
      pending.delete(id);
      job.reject(failure);
    }
  };

  for (let i = 0; i < size; i++) {
    const worker = new Worker(new URL('./embed-worker.ts', import.meta.url), {
      workerData: { model },
    });
    worker.on('message', (message: { id: number; packed: Float32Array; listOf?: Int32Array }) => {
      const job = pending.get(message.id);
      if (!job) return;
      pending.delete(message.id);
      const vectors: Float32Array[] = [];
      for (let offset = 0; offset < message.packed.length; offset += dims) vectors.push(message.packed.subarray(offset, offset + dims));
      job.resolve({ vectors, listOf: message.listOf });
      release(worker);
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`embedding worker exited with code ${code}`));
    });
    workers.push(worker);
    idle.push(worker);
  }
  // A worker that cannot load its module fails at once: check with a tiny batch.
  const pool: EmbedPool = {
    size,
    async embed(texts) {
      if (failure) throw failure;
      const worker = idle.pop() ?? (await new Promise<Worker>((resolve) => waiting.push(resolve)));
      const id = nextId++;
      return new Promise<EmbeddedBatch>((resolve, reject) => {
        pending.set(id, { resolve, reject, worker });
        worker.postMessage({ id, texts });
      });
    },
    setCentroids(centroids, lists) {
      for (const worker of workers) worker.postMessage({ centroids, lists });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
  try {
    await Promise.all(workers.map(() => pool.embed(['warm up'])));
  } catch (error) {
    await pool.close();
    throw error;
  }
  return pool;
}
