/**
 * Installing one release from the origin on a node (origin-follow.ts decides when):
 *
 *   1. the file list, checked against the manifest's hash;
 *   2. each file into RELEASES_DIR/.fetch-<id>/: a hard link of a file of the same
 *      content in a release the node keeps, else fetched and checked against its
 *      hash (16 at a time); a file there from an earlier attempt was checked then;
 *   3. the snapshot, streamed beside the live one and resumed after a cut
 *      connection (origin-fetch.ts), checked against its size and hash;
 *   4. the same check a local swap makes (quick_check, schema version: on the
 *      verification worker), and the snapshot id the manifest names;
 *   5. the folder renamed to RELEASES_DIR/<id>, then made live as `npm run rebuild`
 *      makes a release live: the STATIC_ROOT symlink, then DIRECTORY_DB by rename
 *      (the server swaps it as it swaps any renamed file, without checking it twice).
 *
 * A release already on disk (a rollback to one the node keeps) skips 1-4. Nothing
 * live changes before step 5, and an OriginRefusal at any step removes the folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readSnapshotMeta, type VerifyResult } from '../snapshot/snapshot-file.ts';
import { download, fetchChecked, OriginRefusal } from './origin-fetch.ts';
import { blobOnOrigin, onDisk, ReleaseFilesSchema, type OriginManifest } from './origin-layout.ts';
import { filesByHash, RECORD, recordFetched, SNAPSHOT, type HashedFile } from './release-files.ts';
import { activate, prune, readHistory, releaseDir, writeHistory, type ReleasePaths } from './releases.ts';

const PARALLEL_FETCHES = 16;
const PROGRESS_EVERY_MS = 10_000;

export interface InstallOptions {
  originUrl: string;
  paths: ReleasePaths;
  /** releases kept on the node (the live one and the ones its files are reused from) */
  keep: number;
  /** the full snapshot check, off the event loop (src/ops/verify.ts verifyOffThread) */
  verify: (file: string) => Promise<VerifyResult>;
  /** tells the server this file passed the check (SnapshotHolder.vouch) */
  vouch: (file: string) => void;
  progress: (done: number, total: number, bytes: number) => void;
}

export interface Installed {
  files: number;
  /** files taken from releases the node already had */
  reused: number;
  fetchedFiles: number;
  fetchedBytes: number;
  /** false when the release was on disk already */
  fetched: boolean;
}

const isComplete = (dir: string) => fs.existsSync(path.join(dir, RECORD)) && fs.existsSync(path.join(dir, SNAPSHOT));

export async function installRelease(m: OriginManifest, o: InstallOptions): Promise<Installed> {
  const final = releaseDir(o.paths, m.release);
  let installed: Installed = { files: m.files.count, reused: m.files.count, fetchedFiles: 0, fetchedBytes: 0, fetched: false };
  if (!isComplete(final)) {
    const work = path.join(o.paths.releasesDir, `.fetch-${m.release}`);
    removeOtherFetches(o.paths.releasesDir, work);
    fs.mkdirSync(work, { recursive: true });
    try {
      installed = await fetchRelease(m, work, o);
    } catch (err) {
      if (err instanceof OriginRefusal) fs.rmSync(work, { recursive: true, force: true });
      throw err;
    }
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(work, final);
  }
  o.vouch(path.join(final, SNAPSHOT));
  activate(o.paths, m.release);
  writeHistory(o.paths, [...readHistory(o.paths).filter((id) => id !== m.release), m.release]);
  prune(o.paths, o.keep);
  return installed;
}

async function fetchRelease(m: OriginManifest, work: string, o: InstallOptions): Promise<Installed> {
  const url = (originPath: string) => `${o.originUrl}/${originPath}`;
  const listText = await fetchChecked(url(m.files.path), { size: m.files.size, sha256: m.files.sha256 });
  const parsed = ReleaseFilesSchema.safeParse(JSON.parse(listText.toString('utf8')));
  if (!parsed.success) throw new OriginRefusal(`${m.files.path} is not a file list this node reads`);
  const files: HashedFile[] = parsed.data.files.map(([p, sha256, size]) => ({ path: p, sha256, size }));
  const local = filesByHash(readHistory(o.paths).map((id) => releaseDir(o.paths, id)));
  let done = 0;
  let reused = 0;
  let fetchedFiles = 0;
  let fetchedBytes = 0;
  const timer = setInterval(() => o.progress(done, files.length, fetchedBytes), PROGRESS_EVERY_MS);
  const madeDirs = new Set<string>();
  try {
    await eachAtMost(PARALLEL_FETCHES, files, async (f) => {
      const dest = onDisk(work, f.path);
      if (!fs.existsSync(dest)) {
        const dir = path.dirname(dest);
        if (!madeDirs.has(dir)) {
          fs.mkdirSync(dir, { recursive: true });
          madeDirs.add(dir);
        }
        const source = local.get(f.sha256);
        if (source && linkOrCopy(source, dest)) reused++;
        else {
          const body = await fetchChecked(url(blobOnOrigin(f.sha256)), f);
          const tmp = `${dest}.part`;
          fs.writeFileSync(tmp, body);
          fs.renameSync(tmp, dest);
          fetchedFiles++;
          fetchedBytes += f.size;
        }
      }
      done++;
    });
    fetchedBytes += await download(url(m.snapshot.path), path.join(work, SNAPSHOT), m.snapshot);
  } finally {
    clearInterval(timer);
  }
  const snapshot = path.join(work, SNAPSHOT);
  const verdict = await o.verify(snapshot);
  if (!verdict.ok) throw new OriginRefusal(`the snapshot failed its check: ${verdict.reason}`);
  const id = readSnapshotMeta(snapshot).snapshotId;
  if (id !== m.snapshot.id) throw new OriginRefusal(`the snapshot is ${id}, the manifest names ${m.snapshot.id}`);
  recordFetched(work, files, m.snapshot);
  return { files: files.length, reused, fetchedFiles, fetchedBytes, fetched: true };
}

/** A hard link (files of a release are never written in place), else a copy; false when the source is gone. */
function linkOrCopy(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch {
    try {
      fs.copyFileSync(from, to);
      return true;
    } catch {
      return false;
    }
  }
}

/** Partly fetched releases other than `keep`: an announcement that moved on before they were whole. */
function removeOtherFetches(releasesDir: string, keep: string): void {
  for (const name of fs.existsSync(releasesDir) ? fs.readdirSync(releasesDir) : []) {
    const dir = path.join(releasesDir, name);
    if (name.startsWith('.fetch-') && dir !== keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function eachAtMost<T>(limit: number, items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}
