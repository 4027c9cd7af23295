/**
 * Worker thread body: verifies one snapshot file (PRAGMA quick_check and the
 * schema checks of verifySnapshotFile) on its own connection and posts the
 * verdict. quick_check reads the whole file (about 12 s at 1,000,000 providers);
 * here it does not hold up the requests the old snapshot is still serving.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { verifySnapshotFile } from '../snapshot/snapshot-file.ts';

parentPort!.postMessage(verifySnapshotFile((workerData as { file: string }).file));
