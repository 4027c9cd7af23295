/**
 * Fitting the built-in embedder beside the rest of the build: once the rows are in,
 * the fit sample is read (fitSample, 20,000 texts) and fitted on a worker thread
 * while the main thread builds the indexes and writes the search postings.
 * Without a worker (or when it fails) the fit runs on the main thread when awaited.
 *
 *   const fit = startBuiltinFit(db, categoryNames, useWorker);  // rows are in
 *   ...                                                          // indexes, postings
 *   const embedder = await fit.embedder;                         // same model either way
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { BuiltinEmbedder } from './embedder-builtin.ts';
import { fitBuiltinEmbedder } from './embedder-builtin-fit.ts';
import { fitSample, type BuiltinFit } from './provider-vectors.ts';
import type { CategoryNames } from './snapshot-writer.ts';

export function startBuiltinFit(db: Database.Database, categoryNames: CategoryNames, useWorker: boolean): BuiltinFit {
  const texts = [...fitSample(db, categoryNames)];
  const inThread = async () => fitBuiltinEmbedder(texts);
  if (!useWorker) {
    const embedder = Promise.resolve().then(inThread);
    embedder.catch(() => {}); // awaited by the builder; this only avoids an unhandled rejection meanwhile
    return { embedder, cancel: async () => {} };
  }

  const worker = new Worker(new URL('./embedder-fit-worker.ts', import.meta.url));
  let settled = false;
  const fromWorker = new Promise<BuiltinEmbedder>((resolve, reject) => {
    worker.once('message', (message: { model?: Uint8Array; error?: string }) => {
      settled = true;
      if (message.model) resolve(BuiltinEmbedder.deserialize(message.model));
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`embedder fit worker exited with code ${code}`));
    });
  });
  worker.postMessage({ texts });
  const embedder = fromWorker
    .catch((error: Error) => {
      process.emitWarning(`fitting the embedder on the main thread: the worker thread failed (${error.message})`);
      return inThread();
    })
    .finally(() => void worker.terminate());
  embedder.catch(() => {}); // awaited by the builder; this only avoids an unhandled rejection meanwhile
  return {
    embedder,
    async cancel() {
      settled = true;
      await worker.terminate();
    },
  };
}
