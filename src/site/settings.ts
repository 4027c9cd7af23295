/**
 * The site build's settings, read once from src/env.ts: the public URLs, the
 * IndexNow key and the snapshot. A build whose PUBLIC_WEB_URL is the localhost
 * default gets a loud warning, since every canonical URL, sitemap entry and VIC
 * `@id` would point at localhost.
 */
import { loadEnv } from '../env.ts';
import { resolveIndexNowKey } from './indexnow.ts';
import { sitemapMaxUrls } from './sitemaps.ts';

export interface SiteSettings {
  webUrl: string;
  apiUrl: string;
  indexNowKey: string;
  directoryDb: string;
  sitemapMaxUrls: number;
  /** True when PUBLIC_WEB_URL points at a loopback host. */
  localWebUrl: boolean;
}

let cached: SiteSettings | undefined;

export function siteSettings(): SiteSettings {
  if (cached) return cached;
  const env = loadEnv();
  cached = {
    webUrl: env.publicWebUrl,
    apiUrl: env.publicApiUrl,
    indexNowKey: resolveIndexNowKey(env.indexNowKey),
    directoryDb: env.directoryDb,
    sitemapMaxUrls: sitemapMaxUrls(),
    localWebUrl: isLocalWebUrl(env.publicWebUrl),
  };
  return cached;
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
