/**
 * The API's access to the process's snapshot: the one process-wide SnapshotHolder
 * of src/server/snapshot-holder.ts (shared with the server-rendered pages, so the
 * process opens and polls the snapshot once). Handlers call `currentSnapshot()`
 * once per request and use only that object.
 */
import path from 'node:path';
import { installSnapshotHolder, SnapshotHolder, snapshotHolder } from './snapshot-holder.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from './errors.ts';

/** The snapshot for this request; 503 SERVICE_UNAVAILABLE when none can be opened. */
export function currentSnapshot(): Snapshot {
  try {
    return snapshotHolder().current();
  } catch (err) {
    console.error('snapshot unavailable:', (err as Error).message);
    throw new ApiError('SERVICE_UNAVAILABLE', 'The directory snapshot is not available.');
  }
}

/** Re-reads DIRECTORY_DB and opens it afresh (tests switch files with this). */
export function resetSnapshotContext(): void {
  const file = process.env.DIRECTORY_DB ?? 'data/directory.db';
  installSnapshotHolder(new SnapshotHolder(path.resolve(file)));
}
