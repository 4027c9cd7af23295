/**
 * The release layout of `npm run rebuild` / `npm run rollback`:
 *
 *   <releasesDir>/<id>/snapshot.db     the snapshot this release was rendered from
 *   <releasesDir>/<id>/site/           the site, what STATIC_ROOT points at: the overlay of the
 *                                      files changed since the last full render over that
 *                                      render's client/ (site-layers.ts)
 *   <releasesDir>/<id>/client/         a full render only: astro build's client output
 *   <releasesDir>/<id>/server/         astro build's server output (unused while serving: the
 *                                      running process keeps the bundle it started with)
 *   <releasesDir>/<id>/manifest/       every pre-rendered path, a file per route (page-manifest.ts)
 *   <releasesDir>/<id>/release.json    what was built, from what, and how
 *   <releasesDir>/history.json         activated release ids, oldest first; the last one is live
 *
 * Going live is two atomic renames: STATIC_ROOT is a symlink replaced by a new
 * symlink renamed over it, and DIRECTORY_DB is replaced by a hard link of the
 * release's snapshot renamed over it (a copy when hard links are not possible).
 * The previous release stays on disk untouched: that is the rollback pair; prune
 * keeps the base every kept release's site is layered on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { baseReleaseOf, ensureSite, siteOf, type SiteCounts } from './site-layers.ts';

export interface ReleasePaths {
  releasesDir: string;
  /** DIRECTORY_DB: the file the servers read. */
  liveSnapshot: string;
  /** STATIC_ROOT: a symlink to <release>/site. */
  staticRoot: string;
}

export interface ReleaseInfo {
  id: string;
  snapshotId: string;
  builtAt: string;
  datasetHash: string;
  input: string;
  createdAt: string;
  render: { mode: 'full' | 'incremental' | 'adopted'; renderedPaths: number; copiedPaths: number; ms: number };
  fingerprint: string;
  /** the site's layers (absent in releases stored before layered sites) */
  site?: SiteCounts;
}

export class OpsError extends Error {}

export const releaseDir = (p: ReleasePaths, id: string) => path.join(p.releasesDir, id);
export const releaseSnapshot = (p: ReleasePaths, id: string) => path.join(releaseDir(p, id), 'snapshot.db');
const historyFile = (p: ReleasePaths) => path.join(p.releasesDir, 'history.json');

export function newReleaseId(snapshotId: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1Z');
  return `${stamp}-${snapshotId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`;
}

export function readHistory(p: ReleasePaths): string[] {
  try {
    const ids = JSON.parse(fs.readFileSync(historyFile(p), 'utf8')) as { active?: unknown };
    return Array.isArray(ids.active) ? ids.active.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function writeHistory(p: ReleasePaths, ids: string[]): void {
  fs.mkdirSync(p.releasesDir, { recursive: true });
  const tmp = `${historyFile(p)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ active: ids }, null, 2) + '\n');
  fs.renameSync(tmp, historyFile(p));
}

export function readReleaseInfo(p: ReleasePaths, id: string): ReleaseInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(releaseDir(p, id), 'release.json'), 'utf8')) as ReleaseInfo;
  } catch {
    return undefined;
  }
}

/** The live release: the last history entry, when STATIC_ROOT still points at it. */
export function liveReleaseId(p: ReleasePaths): string | undefined {
  const history = readHistory(p);
  return history[history.length - 1];
}

/** STATIC_ROOT must be a symlink we can replace (or not exist yet); a real folder cannot be swapped atomically. */
export function checkStaticRootSwappable(p: ReleasePaths): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p.staticRoot);
  } catch {
    return;
  }
  if (!st.isSymbolicLink()) {
    throw new OpsError(
      `STATIC_ROOT=${p.staticRoot} is a real folder, so it cannot be swapped atomically. ` +
        'Point STATIC_ROOT at a symlink path (e.g. STATIC_ROOT=dist/current, created by the first rebuild) and serve with the same setting.',
    );
  }
}

/** Replaces `linkPath` by a symlink to `target` with one rename (readers see the old or the new, never nothing). */
export function swapSymlink(linkPath: string, target: string): void {
  fs.mkdirSync(path.dirname(linkPath), { recursive: true });
  const tmp = `${linkPath}.${process.pid}.next`;
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(path.relative(path.dirname(linkPath), target), tmp);
  fs.renameSync(tmp, linkPath);
}

/** Replaces `dest` by the content of `src` with one rename: a hard link when possible, else a copy. */
export function swapFile(dest: string, src: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.${process.pid}.next`;
  fs.rmSync(tmp, { force: true });
  try {
    fs.linkSync(src, tmp);
  } catch {
    fs.copyFileSync(src, tmp);
  }
  fs.renameSync(tmp, dest);
}

/** Makes a release live: static root first, then the snapshot (each switch is one rename). */
export function activate(p: ReleasePaths, id: string): void {
  const snapshot = releaseSnapshot(p, id);
  if (!fs.existsSync(snapshot)) throw new OpsError(`release ${id} has no snapshot.db`);
  ensureSite(releaseDir(p, id));
  const site = siteOf(releaseDir(p, id));
  const previousTarget = readLinkOrUndefined(p.staticRoot);
  if (fs.existsSync(site)) swapSymlink(p.staticRoot, site);
  try {
    swapFile(p.liveSnapshot, snapshot);
  } catch (err) {
    // Keep the pair consistent: put the previous site back when the data could not follow.
    if (previousTarget) swapSymlink(p.staticRoot, path.resolve(path.dirname(p.staticRoot), previousTarget));
    throw err;
  }
}

function readLinkOrUndefined(link: string): string | undefined {
  try {
    return fs.readlinkSync(link);
  } catch {
    return undefined;
  }
}

/** Keeps the last `keep` history entries, their folders and their sites' bases; removes older release folders. */
export function prune(p: ReleasePaths, keep = 3): string[] {
  const history = readHistory(p);
  const kept = new Set(history.slice(-keep));
  for (const id of [...kept]) {
    const base = baseReleaseOf(releaseDir(p, id));
    if (base) kept.add(base);
  }
  const removed: string[] = [];
  for (const name of fs.existsSync(p.releasesDir) ? fs.readdirSync(p.releasesDir) : []) {
    const dir = path.join(p.releasesDir, name);
    if (name === 'history.json' || name.startsWith('.') || kept.has(name)) continue;
    if (!fs.lstatSync(dir).isDirectory()) continue; // lstat: the `current` symlink may live here
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  if (history.length > keep) writeHistory(p, history.slice(-keep));
  return removed;
}
