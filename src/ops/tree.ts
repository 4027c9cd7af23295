/**
 * File-tree helpers for release folders: list, hard-link copy, remove, compare, and the
 * mapping between a pre-rendered file and its URL path (build.format
 * 'file': `/provider/x` is `provider/x.html`, `/` is `index.html`, endpoints keep
 * their own name such as `provider/x/vic.json`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/** Relative paths (with `/`) of every file under dir, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  if (fs.existsSync(dir)) walk('');
  return out.sort();
}

/**
 * Copies a tree as hard links (files are never modified in place, only replaced):
 * `cp -al` when available (one process for 200k files), else file by file, with
 * copies where hard links are impossible.
 */
export function linkTree(from: string, to: string): void {
  if (!fs.existsSync(to) && spawnSync('cp', ['-al', from, to]).status === 0) return;
  for (const rel of listFiles(from)) linkFile(path.join(from, rel), path.join(to, rel));
}

/** The URL path a pre-rendered file answers. */
export function urlPathOfFile(rel: string): string {
  if (rel === 'index.html') return '/';
  if (rel.endsWith('/index.html')) return `/${rel.slice(0, -'/index.html'.length)}`;
  if (rel.endsWith('.html')) return `/${rel.slice(0, -'.html'.length)}`;
  return `/${rel}`;
}

/** The files a URL path may be written to (a page or an endpoint). */
export function filesOfUrlPath(urlPath: string): string[] {
  if (urlPath === '/') return ['index.html'];
  const rel = urlPath.slice(1);
  return [rel, `${rel}.html`, `${rel}/index.html`];
}

/** A hard link of `from` at `to` (its folder made), a copy where a link is impossible (another filesystem). */
export function linkFile(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

/** Removes the file `rel` under root, if there, and the folders it leaves empty. */
export function removeFile(root: string, rel: string): void {
  const file = path.join(root, rel);
  try {
    if (!fs.lstatSync(file).isFile()) return;
  } catch {
    return;
  }
  fs.rmSync(file);
  // rmdir refuses a non-empty folder at once (no listing of a 100k-entry folder).
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      break;
    }
  }
}

/** True when the two files hold the same bytes (or are one hard-linked file). */
export function sameFile(x: string, y: string): boolean {
  const sx = fs.statSync(x);
  const sy = fs.statSync(y);
  if (sx.ino === sy.ino && sx.dev === sy.dev) return true; // the same hard-linked file
  if (sx.size !== sy.size) return false;
  return fs.readFileSync(x).equals(fs.readFileSync(y));
}
