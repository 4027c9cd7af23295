/**
 * Incremental rendering (issue 6, owned by ops): `npm run rebuild` re-renders only
 * the pages whose data changed and copies the rest from the previous release.
 * Every page route that has getStaticPaths passes its result through
 * `scopeStaticPaths`, which does two things, both off unless rebuild sets them:
 *
 * - RENDER_MANIFEST_DIR: records every path the route WOULD render (before any
 *   filtering), so rebuild knows the new build's full page set (pages that no
 *   longer exist are deleted from the copied tree).
 * - RENDER_SCOPE_FILE: a JSON array of URL paths; only those entries are returned,
 *   so Astro renders only them.
 *
 * Without the variables it returns the entries unchanged (a normal full build).
 * The scope is read once per build: pages take it from the app context
 * (`pageRenderScope`, src/site/settings.ts), the VIC card worker from its input.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../env.ts';

export type RenderScopeSettings = Pick<Env, 'renderScopeFile' | 'renderManifestDir'>;

export interface RenderScope {
  /** null: everything is in scope (a full build) */
  listed: { exact: Set<string>; prefixes: string[] } | null;
  manifestDir: string | undefined;
}

export function loadRenderScope(settings: RenderScopeSettings): RenderScope {
  const file = settings.renderScopeFile;
  if (!file) return { listed: null, manifestDir: settings.renderManifestDir };
  const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as string[];
  return {
    listed: {
      exact: new Set(entries.filter((e) => !e.endsWith('*'))),
      prefixes: entries.filter((e) => e.endsWith('*')).map((e) => e.slice(0, -1)),
    },
    manifestDir: settings.renderManifestDir,
  };
}

/**
 * True when the URL path is to be rendered in this build: it is listed, one of its
 * ancestors is listed (`/provider/x` covers `/provider/x/vic.json` and `/kategori/y`
 * covers `/kategori/y/2`), or it starts with a listed `prefix*`.
 */
export function inRenderScope(scope: RenderScope, urlPath: string): boolean {
  const s = scope.listed;
  if (s === null) return true;
  for (let p = urlPath; p.length > 1; p = p.slice(0, p.lastIndexOf('/')) || '/') {
    if (s.exact.has(p)) return true;
  }
  return s.exact.has(urlPath) || s.prefixes.some((prefix) => urlPath.startsWith(prefix));
}

/** A route's file in a page manifest folder (read back by src/ops/page-manifest.ts). */
export const MANIFEST_SUFFIX = '.paths';
export const manifestFileName = (routeId: string): string => encodeURIComponent(routeId) + MANIFEST_SUFFIX;

/** Paths are made and recorded this many at a time: a million-path route never holds them all. */
const CHUNK = 10_000;

/**
 * Filters a route's static paths to the render scope and records the full list.
 * `routeId` names the route file (e.g. 'provider/[slug]'); `urlPathOf` gives the
 * URL path an entry renders to (e.g. e => providerPath(e.params.slug)). A route of
 * a million entries passes keys (slugs) and makes its entries from the few kept.
 */
export function scopeStaticPaths<T>(scope: RenderScope, routeId: string, entries: readonly T[], urlPathOf: (entry: T) => string): T[] {
  const listed = scope.listed;
  const kept: T[] = [];
  let fd: number | undefined;
  if (scope.manifestDir) {
    fs.mkdirSync(scope.manifestDir, { recursive: true });
    fd = fs.openSync(path.join(scope.manifestDir, manifestFileName(routeId)), 'w');
  }
  try {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const part = entries.slice(i, i + CHUNK);
      const paths = part.map(urlPathOf);
      if (fd !== undefined) fs.writeSync(fd, paths.join('\n') + '\n');
      for (const [j, entry] of part.entries()) if (listed === null || inRenderScope(scope, paths[j]!)) kept.push(entry);
    }
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return kept;
}
