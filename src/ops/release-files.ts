/**
 * The files of a finished release folder with their SHA-256, as the origin lists
 * them (origin-layout.ts): every file but the snapshot (published on its own) and
 * this module's record, the site as the plain tree client/ its layers resolve to
 * (site-layers.ts; a node installs it as a full release). The record (`.origin-files.json` in the folder) keeps each
 * file's hash with its inode, size and mtime, on the publishing machine and on each
 * node: the next release's unchanged files are hard links of this one's (the
 * incremental render, a node's fetch), so their hashes are read from the record
 * instead of reading the files again (163,832 files at 100,000 providers).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { listFiles } from './tree.ts';
import { ensureSite, SITE, siteFiles, siteOf } from './site-layers.ts';

export const RECORD = '.origin-files.json';
export const SNAPSHOT = 'snapshot.db';

export interface HashedFile {
  path: string;
  sha256: string;
  size: number;
}

const RecordSchema = z.object({
  snapshot: z.object({ sha256: z.string(), size: z.number(), stamp: z.string() }).nullable(),
  files: z.array(z.tuple([z.string(), z.string(), z.number(), z.string()])),
});
type HashRecord = z.output<typeof RecordSchema>;

const stampOf = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.size}:${Math.round(st.mtimeMs)}`;

/** Files up to this size are hashed from one read; larger ones (a snapshot) in chunks of it. */
const WHOLE_READ_BYTES = 16 << 20;

export function sha256OfFile(file: string, size = fs.statSync(file).size): string {
  const hash = crypto.createHash('sha256');
  // A page or a card is read whole: a buffer of its own per file (a 1 MB one was 15x the read).
  if (size <= WHOLE_READ_BYTES) return hash.update(fs.readFileSync(file)).digest('hex');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(WHOLE_READ_BYTES);
    for (let n = fs.readSync(fd, buffer); n > 0; n = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** The record a folder holds, or an empty one. */
function readRecord(dir: string | undefined): HashRecord {
  if (dir) {
    try {
      return RecordSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, RECORD), 'utf8')));
    } catch {
      // none yet, or from another version: hash again
    }
  }
  return { snapshot: null, files: [] };
}

/** The hash of each file of `dir` a record knows, by the stamp it had then. */
function knownHashes(...records: HashRecord[]): Map<string, string> {
  const known = new Map<string, string>();
  for (const r of records) {
    for (const [, sha, , stamp] of r.files) known.set(stamp, sha);
    if (r.snapshot) known.set(r.snapshot.stamp, r.snapshot.sha256);
  }
  return known;
}

export interface HashedRelease {
  /** `file`: where the content is on disk (a layered site's file is in its overlay or its base) */
  files: (HashedFile & { file: string })[];
  snapshot: { sha256: string; size: number };
}

/**
 * Hashes a release folder (reusing the hashes `dir`'s own record and `previousDir`'s
 * know for files of the same inode, size and mtime) and writes its record.
 */
export function hashRelease(dir: string, previousDir?: string): HashedRelease {
  const known = knownHashes(readRecord(dir), readRecord(previousDir));
  const record: HashRecord = { snapshot: null, files: [] };
  const files: HashedRelease['files'] = [];
  ensureSite(dir);
  const own = listFiles(dir)
    .filter((rel) => !rel.startsWith(RECORD) && rel !== SNAPSHOT && !rel.startsWith('client/') && !rel.startsWith(`${SITE}/`))
    .map((rel) => ({ rel, file: path.join(dir, ...rel.split('/')) }));
  const site = siteFiles(siteOf(dir)).map((f) => ({ rel: `client/${f.rel}`, file: f.file }));
  for (const { rel, file } of [...own, ...site].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    const st = fs.statSync(file);
    const stamp = stampOf(st);
    const sha256 = known.get(stamp) ?? sha256OfFile(file, st.size);
    files.push({ path: rel, sha256, size: st.size, file });
    record.files.push([rel, sha256, st.size, stamp]);
  }
  const snapshotFile = path.join(dir, SNAPSHOT);
  const st = fs.statSync(snapshotFile);
  const snapshot = { sha256: known.get(stampOf(st)) ?? sha256OfFile(snapshotFile, st.size), size: st.size };
  record.snapshot = { ...snapshot, stamp: stampOf(st) };
  writeRecord(dir, record);
  return { files, snapshot };
}

/** Records what a node fetched (the hashes were checked as the files arrived). */
export function recordFetched(dir: string, files: readonly HashedFile[], snapshot: { sha256: string; size: number }): void {
  const record: HashRecord = {
    snapshot: { ...snapshot, stamp: stampOf(fs.statSync(path.join(dir, SNAPSHOT))) },
    files: files.map((f) => [f.path, f.sha256, f.size, stampOf(fs.statSync(path.join(dir, ...f.path.split('/'))))]),
  };
  writeRecord(dir, record);
}

/** Where a file of each content is, in the folders whose records know it (a node reuses them by hard link). */
export function filesByHash(dirs: readonly string[]): Map<string, string> {
  const byHash = new Map<string, string>();
  for (const dir of dirs) for (const [rel, sha] of readRecord(dir).files) if (!byHash.has(sha)) byHash.set(sha, path.join(dir, ...rel.split('/')));
  return byHash;
}

function writeRecord(dir: string, record: HashRecord): void {
  const tmp = path.join(dir, `${RECORD}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(record));
  fs.renameSync(tmp, path.join(dir, RECORD));
}
