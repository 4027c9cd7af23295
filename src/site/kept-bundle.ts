/**
 * Keeps the prerender bundle of a full `astro build` (issue 43), so a small
 * publish can render its changed pages later without bundling again
 * (src/ops/page-renderer.ts). Astro renders the pre-rendered pages from a bundle
 * of its own (server/.prerender/) and deletes it once they are written; the site
 * integration copies it to server/kept-pages/ in `astro:build:generated` (the
 * pages are written, the folder not yet deleted, its assets not yet moved), with
 * the one thing the bundle does not hold itself: each page's stylesheets, which
 * Astro adds to the page head from the build's page data (the `pages` map the
 * integration is handed in `astro:build:setup`, filled in while bundling).
 */
import fs from 'node:fs';
import path from 'node:path';

/** The kept bundle's folder inside a release's server/ folder. */
export const KEPT_BUNDLE_DIR = 'kept-pages';
/** What the bundle needs besides its own files, written beside them. */
export const KEPT_HEAD_FILE = 'kept-head.json';
/** Astro names the bundle's entry module prerender-entry.<hash>.mjs. */
const PRERENDER_ENTRY_PREFIX = 'prerender-entry';

export interface KeptStyle {
  depth: number;
  order: number;
  sheet: unknown;
}

export interface KeptHead {
  /** the entry module's file name inside the kept folder */
  entry: string;
  /** the origin the build rendered its requests with (Astro.url) */
  origin: string;
  /** package.json's version the build's app context had */
  version: string;
  /** page data key (route + component) -> the stylesheets Astro links from that page */
  styles: Record<string, KeptStyle[]>;
}

/** Copies server/.prerender/ to server/kept-pages/ and writes kept-head.json there. */
export function keepPrerenderBundle(serverDir: string, pages: ReadonlyMap<string, { styles: KeptStyle[] }>, origin: string, version: string): void {
  const from = path.join(serverDir, '.prerender');
  const to = path.join(serverDir, KEPT_BUNDLE_DIR);
  const entry = fs.readdirSync(from).find((n) => n.startsWith(PRERENDER_ENTRY_PREFIX) && n.endsWith('.mjs'));
  if (!entry) throw new Error(`no ${PRERENDER_ENTRY_PREFIX}*.mjs in ${from}: Astro's prerender bundle changed shape`);
  fs.rmSync(to, { recursive: true, force: true });
  fs.cpSync(from, to, { recursive: true });
  const head: KeptHead = { entry, origin, version, styles: Object.fromEntries([...pages].map(([key, p]) => [key, p.styles])) };
  fs.writeFileSync(path.join(to, KEPT_HEAD_FILE), JSON.stringify(head));
}
