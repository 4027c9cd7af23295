/**
 * The process's snapshot: one SnapshotHolder over DIRECTORY_DB, opened on first use
 * and hot-swapped when the file is replaced. Handlers take `currentSnapshot()` once
 * per request and use only that object.
 */
import { loadEnv } from '../env.ts';
import { SnapshotHolder, type SnapshotVerifier } from '../query/snapshot-holder.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from './errors.ts';

let holder: SnapshotHolder | undefined;
let verifier: SnapshotVerifier | undefined;

/** Installs the builder's verifier for files that replace the open snapshot (scripts/serve.ts may call it). */
export function setSnapshotVerifier(verify: SnapshotVerifier): void {
  verifier = verify;
}

function snapshotHolder(): SnapshotHolder {
  holder ??= new SnapshotHolder(loadEnv().directoryDb, verifier);
  return holder;
}

/** The snapshot for this request; 503 SERVICE_UNAVAILABLE when none can be opened. */
export function currentSnapshot(): Snapshot {
  try {
    return snapshotHolder().current();
  } catch (err) {
    console.error('snapshot unavailable:', (err as Error).message);
    throw new ApiError('SERVICE_UNAVAILABLE', 'The directory snapshot is not available.');
  }
}

/** Closes the snapshot and forgets DIRECTORY_DB (tests switch files with this). */
export function resetSnapshotContext(): void {
  holder?.close();
  holder = undefined;
}
