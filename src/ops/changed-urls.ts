/**
 * The URLs whose pages changed between two releases, found by comparing each
 * rendered file with the previous site's file of that name (so the list is exact
 * whatever rendered them, and costs the render, not the site), grouped
 * for the editor's summary and written for an IndexNow submission:
 *   changed-urls.txt  one absolute URL a line (changed, added and removed pages)
 *   indexnow.json     the body of POST https://api.indexnow.org/indexnow
 * Build assets (/_astro/*), host rules (_headers) and the 404 page are left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileInSite, siteLayers } from '../server/site-folder.ts';
import { sameFile, urlPathOfFile } from './tree.ts';

export type UrlKind = 'provider page' | 'VIC card' | 'category page' | 'landing page' | 'sitemap' | 'other page';

export interface ChangedUrls {
  added: string[];
  removed: string[];
  changed: string[];
}

// Build assets, host rules and the 404 page are not pages to (re)index.
const NOT_A_PAGE = /^(?:_astro\/|_headers$|_redirects$|404\.html$)/;

/**
 * `rendered`: the files the render wrote (in `nextSite` now); `removed`: the files
 * of `previousSite` that `nextSite` no longer has.
 */
export function changedUrlPaths(previousSite: string | undefined, nextSite: string, rendered: readonly string[], removed: readonly string[]): ChangedUrls {
  const before = previousSite ? siteLayers(previousSite) : undefined;
  const after = siteLayers(nextSite);
  const d = { added: [] as string[], changed: [] as string[] };
  for (const rel of rendered) {
    const was = before && fileInSite(before, rel);
    const now = fileInSite(after, rel);
    if (!was) d.added.push(rel);
    else if (!now || !sameFile(was.file, now.file)) d.changed.push(rel);
  }
  const urls = (files: readonly string[]) => files.filter((f) => !NOT_A_PAGE.test(f)).map(urlPathOfFile).sort();
  return { added: urls(d.added), removed: urls(removed), changed: urls(d.changed) };
}

export function kindOf(urlPath: string): UrlKind {
  if (/^\/provider\/[^/]+\/vic\.json$/.test(urlPath)) return 'VIC card';
  if (/^\/provider\/[^/]+$/.test(urlPath)) return 'provider page';
  if (urlPath.startsWith('/kategori/')) return 'category page';
  if (/^\/[a-z0-9-]+-terbaik-[a-z0-9-]+$/.test(urlPath)) return 'landing page';
  if (/^\/sitemap[a-z0-9-]*\.xml$/.test(urlPath)) return 'sitemap';
  return 'other page';
}

export function countByKind(paths: string[]): Record<UrlKind, number> {
  const out = { 'provider page': 0, 'VIC card': 0, 'category page': 0, 'landing page': 0, sitemap: 0, 'other page': 0 };
  for (const p of paths) out[kindOf(p)]++;
  return out;
}

export function allChanged(c: ChangedUrls): string[] {
  return [...new Set([...c.added, ...c.changed, ...c.removed])].sort();
}

/** Writes changed-urls.txt and indexnow.json into dir; returns the two paths. */
export function writeIndexNowFiles(dir: string, c: ChangedUrls, webUrl: string, key: string): { urlsFile: string; bodyFile: string } {
  const base = webUrl.replace(/\/+$/, '');
  const urlList = allChanged(c).map((p) => `${base}${p}`);
  const urlsFile = path.join(dir, 'changed-urls.txt');
  const bodyFile = path.join(dir, 'indexnow.json');
  fs.writeFileSync(urlsFile, urlList.map((u) => `${u}\n`).join(''));
  const host = new URL(base).host;
  // IndexNow accepts at most 10,000 URLs per request; larger lists are split when submitted.
  fs.writeFileSync(bodyFile, JSON.stringify({ host, key, keyLocation: `${base}/${key}.txt`, urlList }, null, 2) + '\n');
  return { urlsFile, bodyFile };
}

/** Submits the list (only when the editor asks: --indexnow). */
export async function submitIndexNow(bodyFile: string, endpoint = 'https://api.indexnow.org/indexnow'): Promise<string> {
  const body = JSON.parse(fs.readFileSync(bodyFile, 'utf8')) as { urlList: string[] };
  const results: string[] = [];
  for (let i = 0; i < body.urlList.length; i += 10_000) {
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ ...body, urlList: body.urlList.slice(i, i + 10_000) }),
    });
    results.push(`${res.status}`);
  }
  return results.join(', ');
}
