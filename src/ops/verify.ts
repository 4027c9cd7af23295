/**
 * The snapshot check used before a file is served, swapped in or made live by a
 * rebuild: the builder's verifySnapshotFile (PRAGMA quick_check, the required
 * tables and meta rows, and the schema version this code reads).
 */
import type { SnapshotVerifier } from '../query/snapshot-holder.ts';
import { verifySnapshotFile } from '../snapshot/snapshot-file.ts';

export const snapshotVerifier: SnapshotVerifier = (file) => {
  try {
    return verifySnapshotFile(file);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
};
