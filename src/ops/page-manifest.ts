/**
 * A release's page manifest: its manifest/ folder, one `<route>.paths` file per
 * pre-rendered route with every URL path the route renders, one per line, as the
 * render wrote them (src/site/render-scope.ts). At a million providers the provider
 * and VIC routes list 1.6 million paths, so the manifest stays on disk and is read a
 * route at a time: the incremental render reads the small routes it renders whole,
 * and compares each route's file with the previous release's, which for an edit is
 * the same bytes (no path listed at all).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST_SUFFIX, manifestFileName } from '../site/render-scope.ts';

/** In a release folder: its page manifest. */
export const MANIFEST_DIR = 'manifest';

const fileOf = (dir: string, route: string) => path.join(dir, manifestFileName(route));

/** The routes a manifest folder lists (none when it does not exist). */
export function manifestRoutes(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(MANIFEST_SUFFIX))
    .map((name) => decodeURIComponent(name.slice(0, -MANIFEST_SUFFIX.length)))
    .sort();
}

/** A route's paths (for the small routes: the provider routes' are compared as bytes, removedPaths). */
export function routePaths(dir: string, route: string): string[] {
  return fs.readFileSync(fileOf(dir, route), 'utf8').split('\n').filter(Boolean);
}

/** The paths of a previous manifest that the new one no longer lists, route by route. */
export function removedPaths(previousDir: string, dir: string): string[] {
  const now = new Set(manifestRoutes(dir));
  const removed: string[] = [];
  for (const route of manifestRoutes(previousDir)) {
    const before = fs.readFileSync(fileOf(previousDir, route));
    const after = now.has(route) ? fs.readFileSync(fileOf(dir, route)) : Buffer.alloc(0);
    // An edit leaves a route's list as it was: equal bytes.
    if (!before.equals(after)) removed.push(...linesNotIn(before, after));
  }
  return removed;
}

const NEWLINE = 0x0a;

/** Calls `line(start, end)` for each non-empty line of `bytes`. */
function eachLine(bytes: Buffer, line: (start: number, end: number) => void): void {
  for (let start = 0; start < bytes.length; ) {
    const at = bytes.indexOf(NEWLINE, start);
    const end = at === -1 ? bytes.length : at;
    if (end > start) line(start, end);
    start = end + 1;
  }
}

/** FNV-1a over a line's bytes: where its slot is; lines are told apart by their bytes. */
function hashOf(bytes: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * The lines of `before` that `after` does not have. `after`'s lines go in an
 * open-addressing table of their offsets (typed arrays, about 16 bytes a line), and
 * each line of `before` is compared by bytes with the lines in its slots: a route of
 * 816,000 paths makes no string but those of the removed paths (a Set of the path
 * strings held 250 MB at a million providers).
 */
function linesNotIn(before: Buffer, after: Buffer): string[] {
  let lines = 0;
  eachLine(after, () => lines++);
  let size = 16;
  while (size < lines * 2) size *= 2;
  const mask = size - 1;
  const starts = new Int32Array(size).fill(-1);
  const ends = new Int32Array(size);
  eachLine(after, (start, end) => {
    let slot = hashOf(after, start, end) & mask;
    while (starts[slot] !== -1) slot = (slot + 1) & mask;
    starts[slot] = start;
    ends[slot] = end;
  });
  const missing: string[] = [];
  eachLine(before, (start, end) => {
    for (let slot = hashOf(before, start, end) & mask; starts[slot] !== -1; slot = (slot + 1) & mask) {
      if (before.compare(after, starts[slot], ends[slot], start, end) === 0) return;
    }
    missing.push(before.toString('utf8', start, end));
  });
  return missing;
}
