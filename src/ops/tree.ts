/**
 * File-tree helpers for release folders: list, hard-link copy, hard-link overlay, compare,
 * and the mapping between a pre-rendered file and its URL path (build.format
 * 'file': `/provider/x` is `provider/x.html`, `/` is `index.html`, endpoints keep
 * their own name such as `provider/x/vic.json`).
 */
import crypto from 'node:crypto';
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
  const made = new Set<string>();
  for (const rel of listFiles(from)) {
    const dest = path.join(to, rel);
    const dir = path.dirname(dest);
    if (!made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    try {
      fs.linkSync(path.join(from, rel), dest);
    } catch {
      fs.copyFileSync(path.join(from, rel), dest);
    }
  }
}

/** Hard-links every file of `from` into `to`, replacing what is there (unlink first: never write through a shared link). */
export function overlayTree(from: string, to: string): string[] {
  const files = listFiles(from);
  const made = new Set<string>();
  for (const rel of files) {
    const dest = path.join(to, rel);
    if (!made.has(path.dirname(dest))) {
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      made.add(path.dirname(dest));
    }
    fs.rmSync(dest, { force: true });
    fs.linkSync(path.join(from, rel), dest);
  }
  return files;
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

/** Removes the output of a URL path and any folders it leaves empty. */
export function removeUrlPath(root: string, urlPath: string): void {
  for (const rel of filesOfUrlPath(urlPath)) {
    const file = path.join(root, rel);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) continue;
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
}

const hashFile = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Files that differ between two trees: added, removed or with other bytes. */
export function diffTrees(before: string | undefined, after: string): { added: string[]; removed: string[]; changed: string[] } {
  const a = new Set(before ? listFiles(before) : []);
  const b = listFiles(after);
  const result = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  for (const rel of b) {
    if (!a.has(rel)) result.added.push(rel);
    else if (!sameFile(path.join(before!, rel), path.join(after, rel))) result.changed.push(rel);
    a.delete(rel);
  }
  result.removed = [...a].sort();
  return result;
}

/** True when the two files hold the same bytes (or are one hard-linked file). */
export function sameFile(x: string, y: string): boolean {
  const sx = fs.statSync(x);
  const sy = fs.statSync(y);
  if (sx.ino === sy.ino && sx.dev === sy.dev) return true; // the same hard-linked file
  if (sx.size !== sy.size) return false;
  return hashFile(x) === hashFile(y);
}
