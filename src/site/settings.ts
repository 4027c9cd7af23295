/**
 * The site's settings, derived once per process from the settings the entry point
 * parsed (the app context the Astro integration or scripts/serve.ts installed):
 * the public URLs, the IndexNow key and the snapshot. A build whose
 * PUBLIC_WEB_URL is the localhost default gets a loud warning, since every
 * canonical URL, sitemap entry and VIC `@id` would point at localhost.
 */
import { appContext } from '../server/context.ts';
import { resolveIndexNowKey } from './indexnow.ts';
import { loadRenderScope, type RenderScope } from './render-scope.ts';
import { staticHeaders, type StaticHeaders } from './static-headers.ts';

export interface SiteSettings {
  webUrl: string;
  apiUrl: string;
  indexNowKey: string;
  directoryDb: string;
  sitemapMaxUrls: number;
  /** True when PUBLIC_WEB_URL points at a loopback host. */
  localWebUrl: boolean;
}

export function siteSettings(): SiteSettings {
  const app = appContext();
  const { env } = app;
  return app.memo('site-settings', () => ({
    webUrl: env.publicWebUrl,
    apiUrl: env.publicApiUrl,
    indexNowKey: resolveIndexNowKey(env.indexNowKey),
    directoryDb: env.directoryDb,
    sitemapMaxUrls: env.sitemapMaxUrls,
    localWebUrl: isLocalWebUrl(env.publicWebUrl),
  }));
}

/** The header rules of the static files for this process's settings (what `astro dev` sends for them). */
export function siteHeaders(): StaticHeaders {
  const app = appContext();
  return app.memo('static-headers', () => staticHeaders(app.env.securityHeaders));
}

/** The render scope of this build (src/site/render-scope.ts), read once. */
export function pageRenderScope(): RenderScope {
  const app = appContext();
  return app.memo('render-scope', () => loadRenderScope(app.env));
}

export function isLocalWebUrl(webUrl: string): boolean {
  const host = new URL(webUrl).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

export function localhostWarning(webUrl: string): string {
  const bar = '!'.repeat(78);
  return [
    bar,
    `!! WARNING: PUBLIC_WEB_URL is ${webUrl} (a localhost address).`,
    '!! Canonical URLs, sitemaps, llms.txt and VIC @id values in this build point at it.',
    '!! Set PUBLIC_WEB_URL (and PUBLIC_API_URL) to the public address before deploying.',
    bar,
  ].join('\n');
}
