/**
 * The next publish's copy of the live snapshot, made ahead (issue 43). An
 * incremental snapshot build starts from a copy of the live snapshot (the live
 * file is never written): at 1,000,000 providers that is 4 GB, 5-18 s of disk
 * on ext4 (no reflink), the largest part of a small publish. So after each
 * switch the rebuild copies the new live release's snapshot.db to
 * <releasesDir>/.spare-<release id>.db (copied under a temporary name, then
 * renamed: a spare that exists is whole), checks the copy whole (quick_check, on a
 * worker thread, while its pages are still in memory), and the next rebuild, when it
 * starts from that same release, renames the spare into place instead of copying.
 * An incremental build then changes it through SQLite only, so that rebuild checks
 * the new snapshot's structure and leaves out the quick_check that, at 1,000,000
 * providers, read the 4 GB file again from disk for 12-35 s before the switch
 * (src/ops/rebuild.ts).
 * A release's snapshot.db is never written after its release is made, so the
 * spare holds its bytes; the size is checked as well. One spare at a time: making
 * one removes the others (a rollback or a full build leaves them stale). Costs
 * one more snapshot's disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { releaseSnapshot, type ReleasePaths } from './releases.ts';
import { verifyOffThread } from './verify.ts';

const PREFIX = '.spare-';

export const spareSnapshotFile = (p: ReleasePaths, id: string) => path.join(p.releasesDir, `${PREFIX}${id}.db`);

/** Copies release `id`'s snapshot to its spare and checks the copy; removes every other spare. */
export async function prepareSpareSnapshot(p: ReleasePaths, id: string): Promise<void> {
  const spare = spareSnapshotFile(p, id);
  for (const name of fs.readdirSync(p.releasesDir)) {
    if (name.startsWith(PREFIX) && path.join(p.releasesDir, name) !== spare) fs.rmSync(path.join(p.releasesDir, name), { force: true });
  }
  if (fs.existsSync(spare)) return;
  const tmp = `${spare}.tmp-${process.pid}`;
  try {
    await fs.promises.copyFile(releaseSnapshot(p, id), tmp, fs.constants.COPYFILE_FICLONE);
    const verdict = await verifyOffThread(tmp);
    if (!verdict.ok) throw new Error(`the copy failed its check: ${verdict.reason}`);
    fs.renameSync(tmp, spare);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The spare of release `id` when it is there and as long as `base` (the snapshot it was copied from), else undefined. */
export function readySpareSnapshot(p: ReleasePaths, id: string, base: string): string | undefined {
  const spare = spareSnapshotFile(p, id);
  try {
    return fs.statSync(spare).size === fs.statSync(base).size ? spare : undefined;
  } catch {
    return undefined;
  }
}
