/**
 * Where `astro build` writes a pre-rendered path and which URL it requests it
 * with, for this site's settings (astro.config.mjs: build.format 'file',
 * trailingSlash 'never', base '/'), as Astro's generate step computes them
 * (getUrlForPath, getOutFolder and getOutFile in astro/dist/core/build): a page
 * /a/b is requested as /a/b.html and written to a/b.html, / to index.html; an
 * endpoint is requested and written under its own path. The kept page renderer
 * (page-render-worker.ts) writes the same names; URL paths are dataset slugs
 * ([a-z0-9-], src/schemas/dataset.ts), so no percent-encoding arises.
 */
import path from 'node:path';

/** The part of Astro's RouteData these names depend on. */
export interface RenderedRoute {
  type: string;
}

export interface PageFile {
  /** the URL path of the request the page is rendered from */
  requestPath: string;
  /** the file's path relative to client/ */
  relative: string;
}

export function outFileOf(pathname: string, route: RenderedRoute): PageFile {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (route.type === 'endpoint') return { requestPath: trimmed, relative: trimmed.replace(/^\//, '') };
  if (route.type !== 'page') throw new Error(`${pathname}: a ${route.type} route; the kept renderer renders pages and endpoints only`);
  if (trimmed === '/' || trimmed === '') return { requestPath: '/index.html', relative: 'index.html' };
  const relative = `${trimmed.replace(/^\//, '')}.html`;
  return { requestPath: `/${relative}`, relative: path.posix.normalize(relative) };
}
