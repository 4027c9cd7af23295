/**
 * The snapshot check used before a file is served, swapped in or made live by a
 * rebuild: the builder's verifySnapshotFile (PRAGMA quick_check, the required
 * tables and meta rows, and the schema version this code reads).
 */
import { Worker } from 'node:worker_threads';
import type { SnapshotVerifier } from '../server/snapshot-holder.ts';
import { verifySnapshotFile, type VerifyResult } from '../snapshot/snapshot-file.ts';

export const snapshotVerifier: SnapshotVerifier = (file) => {
  try {
    return verifySnapshotFile(file);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
};

/**
 * The same check on a worker thread, for a server swapping snapshots while it
 * serves. Where no worker can start (a bundle without the worker file), it runs
 * inline: slower for the requests in flight, never skipped.
 */
export function verifyOffThread(file: string): Promise<VerifyResult> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./verify-worker.ts', import.meta.url), { workerData: { file } });
    } catch {
      resolve(snapshotVerifier(file));
      return;
    }
    let settled = false;
    const settle = (result: VerifyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    worker.once('message', (result: VerifyResult) => settle(result));
    worker.once('error', () => settle(snapshotVerifier(file)));
    // After its answer the worker exits too: only an exit without an answer falls back
    // (the fallback's argument used to be computed first, re-running quick_check on the
    // main thread after every background check: 12 s without answers at 1M providers).
    worker.once('exit', (code) => {
      if (settled) return;
      settle(code === 0 ? snapshotVerifier(file) : { ok: false, reason: `verification worker exited with ${code}` });
    });
  });
}
