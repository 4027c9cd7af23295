/**
 * Writing a release's layered site (the layout src/server/site-folder.ts reads;
 * docs/operations.md, "How a release is stored"):
 *
 *   <release>/client/        a full render only: the whole site, the base of the releases after it
 *   <release>/site/base      -> ../client (a full render) or ../../<base release>/client
 *   <release>/site/overlay/  every file that differs from the base (cumulative since the base)
 *   <release>/site/gone/     an empty file per base file this release no longer has
 *
 * A small publish links the previous overlay and gone/ (small) and writes the
 * rendered files over them, so it costs the change since the last full render,
 * not the site. Past COMPACT_SHARE (needsNewBase) the release's site is written out whole into
 * its own client/ (hard links: no render) and becomes the next base.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BASE, GONE, OVERLAY, fileInSite, siteLayers } from '../server/site-folder.ts';
import { filesOfUrlPath, linkFile, linkTree, listFiles, removeFile } from './tree.ts';

export const SITE = 'site';

/**
 * An overlay holding more files than this share of the base's is folded into a
 * new base. At 10% a publish links at most a tenth of the files a whole copy
 * did (16,000 at 100,000 providers), and a new base (one whole copy) comes only
 * after changes to a tenth of the site. An overlay of up to COMPACT_MIN_FILES is
 * never folded: linking that many costs a few milliseconds, whatever the site.
 */
export const COMPACT_SHARE = 0.1;
export const COMPACT_MIN_FILES = 1000;

/** Whether a site of `overlayFiles` over a base of `baseFiles` is folded into a new base. */
export const needsNewBase = (overlayFiles: number, baseFiles: number) => overlayFiles > Math.max(COMPACT_MIN_FILES, COMPACT_SHARE * baseFiles);

/** What release.json records of a release's site (rollback, prune and the next publish read it). */
export interface SiteCounts {
  /** the release whose client/ is the base */
  base: string;
  baseFiles: number;
  overlayFiles: number;
  goneFiles: number;
}

export const siteOf = (releaseDir: string) => path.join(releaseDir, SITE);

/** The release whose client/ a release's site is layered on (itself after a full render), or undefined without a site. */
export function baseReleaseOf(releaseDir: string): string | undefined {
  let target: string;
  try {
    target = fs.readlinkSync(path.join(siteOf(releaseDir), BASE));
  } catch {
    return undefined;
  }
  const parts = target.split(/[\\/]/);
  return parts.length === 2 ? path.basename(releaseDir) : parts[parts.length - 2];
}

/** Writes site/ for a release folder whose client/ holds the whole site (a full render, an adopted or fetched release). */
export function makeFullSite(releaseDir: string): void {
  const site = siteOf(releaseDir);
  fs.mkdirSync(path.join(site, OVERLAY), { recursive: true });
  fs.mkdirSync(path.join(site, GONE), { recursive: true });
  fs.symlinkSync(path.join('..', 'client'), path.join(site, BASE));
}

/**
 * Gives a release folder of the layout before site/ (client/ only) its site/, by
 * rename, so activating or publishing it reads it as any other.
 */
export function ensureSite(releaseDir: string): void {
  if (fs.existsSync(siteOf(releaseDir)) || !fs.existsSync(path.join(releaseDir, 'client'))) return;
  const tmp = path.join(releaseDir, `.site-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  makeFullSite(tmp); // base -> ../client: the same link once site/ is renamed beside client/
  fs.renameSync(path.join(tmp, SITE), siteOf(releaseDir));
  fs.rmSync(tmp, { recursive: true, force: true });
}

export interface LayerInput {
  /** the release folder being built (beside the others in RELEASES_DIR) */
  dir: string;
  /** the release the new one follows (it has a site/) */
  previousDir: string;
  /** the base the previous release's site is layered on, and its number of files */
  base: string;
  baseFiles: number;
  /** a folder holding exactly the rendered files (they are moved from it) */
  renderedDir: string;
  /** URL paths the new data no longer has */
  removedUrlPaths: readonly string[];
}

export interface Layered {
  rendered: string[];
  /** files (relative) the previous site had that this one does not */
  removed: string[];
  overlayFiles: number;
  goneFiles: number;
  /** the files of the new site */
  files: number;
}

/** Writes `dir`/site/ as the previous site with the rendered files over it and the removed paths gone. */
export function layerSite(input: LayerInput): Layered {
  const previous = siteOf(input.previousDir);
  const site = siteOf(input.dir);
  const overlay = path.join(site, OVERLAY);
  const gone = path.join(site, GONE);
  const baseClient = path.join(path.dirname(input.dir), input.base, 'client');
  fs.mkdirSync(site, { recursive: true });
  fs.symlinkSync(path.join('..', '..', input.base, 'client'), path.join(site, BASE));
  linkTree(path.join(previous, OVERLAY), overlay);
  linkTree(path.join(previous, GONE), gone);
  fs.mkdirSync(overlay, { recursive: true });
  fs.mkdirSync(gone, { recursive: true });
  const before = siteLayers(previous);
  const removed: string[] = [];
  for (const urlPath of input.removedUrlPaths) {
    for (const rel of filesOfUrlPath(urlPath)) {
      if (!fileInSite(before, rel)) continue;
      removed.push(rel);
      removeFile(overlay, rel);
      if (isFile(path.join(baseClient, rel))) writeEmpty(path.join(gone, rel));
    }
  }
  const rendered = listFiles(input.renderedDir);
  for (const rel of rendered) {
    removeFile(gone, rel);
    removeFile(overlay, rel); // unlink first: never write through a shared link
    const from = path.join(input.renderedDir, rel);
    if (sameBytes(from, path.join(baseClient, rel))) continue;
    fs.mkdirSync(path.dirname(path.join(overlay, rel)), { recursive: true });
    fs.renameSync(from, path.join(overlay, rel));
  }
  const overlayFiles = listFiles(overlay);
  const goneFiles = listFiles(gone).length;
  const added = overlayFiles.filter((rel) => !isFile(path.join(baseClient, rel))).length;
  return { rendered, removed: removed.sort(), overlayFiles: overlayFiles.length, goneFiles, files: input.baseFiles - goneFiles + added };
}

/** Every file of a site (the overlay's and the base's but the gone) and where it is on disk, sorted. */
export function siteFiles(site: string): { rel: string; file: string }[] {
  const { layers, gone } = siteLayers(site);
  const from = (layer: string) => (rel: string) => ({ rel, file: path.join(layer, ...rel.split('/')) });
  if (layers.length === 1) return listFiles(site).map(from(site));
  const [overlay, base] = layers as [string, string];
  const top = listFiles(overlay);
  const hidden = new Set([...listFiles(gone!), ...top]);
  const files = [...top.map(from(overlay)), ...listFiles(base).filter((rel) => !hidden.has(rel)).map(from(base))];
  return files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/**
 * Writes a site out as a plain folder of hard links (`to` must not exist): what a
 * CDN deploy uploads (npm run release:export), and a new base.
 */
export function exportSite(site: string, to: string): number {
  const { layers, gone } = siteLayers(site);
  if (fs.existsSync(to)) throw new Error(`${to} exists; give a folder that does not`);
  linkTree(fs.realpathSync(layers[layers.length - 1]!), to);
  if (layers.length === 1) return listFiles(to).length;
  for (const rel of listFiles(gone!)) removeFile(to, rel);
  for (const rel of listFiles(layers[0]!)) {
    removeFile(to, rel);
    linkFile(path.join(layers[0]!, rel), path.join(to, rel));
  }
  return listFiles(to).length;
}

/** Folds `dir`'s layered site into its own client/ and makes that its base. */
export function compactSite(dir: string): number {
  const files = exportSite(siteOf(dir), path.join(dir, 'client'));
  fs.rmSync(siteOf(dir), { recursive: true, force: true });
  makeFullSite(dir);
  return files;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function sameBytes(a: string, b: string): boolean {
  if (!isFile(b)) return false;
  return fs.readFileSync(a).equals(fs.readFileSync(b));
}

function writeEmpty(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
}
