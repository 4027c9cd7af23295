/**
 * Publishing a release to the origin (RELEASE_ORIGIN_DIR, origin-layout.ts): the
 * one call `npm run rebuild` and `npm run rollback` make after the local switch,
 * and `npm run origin:publish` on its own. What is published is a finished release
 * folder: its snapshot, and every other file it holds (the site, the server
 * bundle, the rebuild's lists), a layered site as the plain client/ tree it
 * resolves to (release-files.ts), so a node installs every release as a full one.
 *
 * Order: the contents of the release's files (once per content; one already
 * there is not copied again), the snapshot, the file list, and last current.json
 * by rename, so a node sees the whole release or the previous one. Then the
 * releases the local history no longer keeps are removed from the origin, and
 * the contents no kept release holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { readSnapshotMeta } from '../snapshot/snapshot-file.ts';
import { blobOnOrigin, MANIFEST, onDisk, ORIGIN_FORMAT, OriginManifestSchema, releaseOnOrigin, ReleaseFilesSchema, type OriginManifest, type ReleaseFiles } from './origin-layout.ts';
import { readHistory, releaseDir, type ReleasePaths } from './releases.ts';
import { hashRelease, SNAPSHOT } from './release-files.ts';

export interface PublishResult {
  manifest: OriginManifest;
  /** contents copied to the origin now (the others were there) */
  copiedFiles: number;
  copiedBytes: number;
  ms: number;
}

/** Publishes release `id` of `paths` to `originDir` and makes it the origin's current release. */
export function publishRelease(paths: ReleasePaths, id: string, originDir: string, now = new Date()): PublishResult {
  const started = performance.now();
  const dir = releaseDir(paths, id);
  const history = readHistory(paths);
  const before = history[history.indexOf(id) - 1];
  const hashed = hashRelease(dir, before ? releaseDir(paths, before) : undefined);
  let copiedFiles = 0;
  let copiedBytes = 0;
  const madeDirs = new Set<string>();
  for (const f of hashed.files) {
    if (copyOnce(f.file, onDisk(originDir, blobOnOrigin(f.sha256)), madeDirs)) {
      copiedFiles++;
      copiedBytes += f.size;
    }
  }
  const snapshotPath = releaseOnOrigin(id, SNAPSHOT);
  const snapshotOnOrigin = onDisk(originDir, snapshotPath);
  if (!sameSize(snapshotOnOrigin, hashed.snapshot.size)) {
    writeAtomically(snapshotOnOrigin, (tmp) => fs.copyFileSync(path.join(dir, SNAPSHOT), tmp, fs.constants.COPYFILE_FICLONE));
    copiedBytes += hashed.snapshot.size;
  }
  const list: ReleaseFiles = { format: ORIGIN_FORMAT, files: hashed.files.map((f) => [f.path, f.sha256, f.size]) };
  const listText = JSON.stringify(list);
  const listPath = releaseOnOrigin(id, 'files.json');
  writeAtomically(onDisk(originDir, listPath), (tmp) => fs.writeFileSync(tmp, listText));

  const manifest: OriginManifest = {
    format: ORIGIN_FORMAT,
    release: id,
    publishedAt: now.toISOString(),
    previous: readCurrent(originDir)?.release ?? null,
    snapshot: { id: readSnapshotMeta(path.join(dir, SNAPSHOT)).snapshotId, path: snapshotPath, size: hashed.snapshot.size, sha256: hashed.snapshot.sha256 },
    files: { path: listPath, count: list.files.length, size: Buffer.byteLength(listText), sha256: crypto.createHash('sha256').update(listText).digest('hex') },
  };
  writeAtomically(path.join(originDir, MANIFEST), (tmp) => {
    fs.writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
    const fd = fs.openSync(tmp, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  });
  pruneOrigin(originDir, new Set([...readHistory(paths), id]));
  return { manifest, copiedFiles, copiedBytes, ms: performance.now() - started };
}

/** The origin's current manifest, or undefined when there is none (or it is unreadable). */
export function readCurrent(originDir: string): OriginManifest | undefined {
  try {
    return OriginManifestSchema.parse(JSON.parse(fs.readFileSync(path.join(originDir, MANIFEST), 'utf8')));
  } catch {
    return undefined;
  }
}

const sameSize = (file: string, size: number) => {
  try {
    return fs.statSync(file).size === size;
  } catch {
    return false;
  }
};

/**
 * Puts `from`'s content at `to` unless a file is there (contents are named by their hash);
 * true when it did. A hard link where the origin folder shares the release's filesystem
 * (neither is ever written in place): at 163,832 files, copies took most of a first
 * publish; else a copy, renamed into place.
 */
function copyOnce(from: string, to: string, madeDirs: Set<string>): boolean {
  const dir = path.dirname(to);
  if (!madeDirs.has(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  try {
    fs.linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
  }
  if (fs.existsSync(to)) return false;
  writeAtomically(to, (tmp) => fs.copyFileSync(from, tmp, fs.constants.COPYFILE_FICLONE));
  return true;
}

/** Writes a file under a temporary name beside it, then renames it into place. */
function writeAtomically(file: string, write: (tmp: string) => void): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    write(tmp);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes the origin's releases not in `keep` (nor current), then the contents no kept release lists. */
function pruneOrigin(originDir: string, keep: Set<string>): void {
  const current = readCurrent(originDir)?.release;
  if (current) keep.add(current);
  const releasesDir = path.join(originDir, 'releases');
  const held = new Set<string>();
  for (const name of fs.readdirSync(releasesDir)) {
    const dir = path.join(releasesDir, name);
    if (!keep.has(name)) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    try {
      const list = ReleaseFilesSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'files.json'), 'utf8')));
      for (const [, sha] of list.files) held.add(sha);
    } catch {
      return; // a kept release whose list cannot be read: remove no content it might hold
    }
  }
  const filesDir = path.join(originDir, 'files');
  for (const bucket of fs.existsSync(filesDir) ? fs.readdirSync(filesDir) : []) {
    for (const name of fs.readdirSync(path.join(filesDir, bucket))) {
      if (!held.has(name)) fs.rmSync(path.join(filesDir, bucket, name), { force: true });
    }
  }
}

export type PublishOutcome = { ok: true; result: PublishResult } | { ok: false; reason: string };

/**
 * Publishes a release that just went live here (rebuild, rollback): a failure is
 * reported, not thrown, since the local switch has happened; `npm run origin:publish`
 * tries again.
 */
export function publishAfterSwitch(paths: ReleasePaths, id: string, originDir: string): PublishOutcome {
  try {
    return { ok: true, result: publishRelease(paths, id, originDir) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

/** The line the editor's commands print about the origin. */
export function describePublish(outcome: PublishOutcome, originDir: string): string {
  if (!outcome.ok) {
    return `origin: publishing to ${originDir} FAILED (${outcome.reason}); the release is live on this machine only: npm run origin:publish tries again`;
  }
  const { manifest, copiedFiles, copiedBytes, ms } = outcome.result;
  return `origin: ${originDir} now announces ${manifest.release} (${manifest.files.count} files, ${copiedFiles} new contents, ${(copiedBytes / 1e6).toFixed(1)} MB copied, in ${(ms / 1000).toFixed(1)}s)`;
}
