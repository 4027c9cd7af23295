/**
 * The machine-readable files of the static surface as endpoint responses:
 * llms.txt, robots.txt, the IndexNow key file and the sitemaps. Pre-rendered to
 * files; their served headers come from src/site/static-headers.ts.
 */
import { programmaticParams } from '../query/discovery.ts';
import { reportListings } from '../query/reports.ts';
import { publishedCount } from '../query/site-taxonomy.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { indexNowKeyPath } from './indexnow.ts';
import { renderLlmsTxt, renderRobotsTxt } from './llms.ts';
import { siteHeaders, siteSettings } from './settings.ts';
import { sitemapEntries, sitemapFiles, sitemapIndexEntries } from './sitemap-files.ts';
import { parseSitemapParam, renderSitemapIndex, renderUrlset } from './sitemaps.ts';

const respond = (path: string, body: string) => new Response(body, { headers: siteHeaders().forPath(path) });

export function llmsTxtResponse(snapshot: Snapshot): Response {
  const s = siteSettings();
  const firstSlug = snapshot.prepare<[], { slug: string }>('SELECT slug FROM published_providers ORDER BY slug LIMIT 1').get()?.slug ?? null;
  const body = renderLlmsTxt({
    webUrl: s.webUrl,
    apiUrl: s.apiUrl,
    indexNowKey: s.indexNowKey,
    sitemapFiles: sitemapFiles(snapshot, s.sitemapMaxUrls).map((f) => f.fileName),
    exampleSlug: firstSlug,
    exampleLandingPath: programmaticParams(snapshot)[0]?.path ?? null,
    publishedProviders: publishedCount(snapshot),
    reports: reportListings(snapshot),
  });
  return respond('/llms.txt', body);
}

export const robotsTxtResponse = () => respond('/robots.txt', renderRobotsTxt(siteSettings().webUrl));

export function indexNowKeyParams() {
  return [{ params: { key: siteSettings().indexNowKey } }];
}

export const indexNowKeyResponse = () => {
  const key = siteSettings().indexNowKey;
  return respond(indexNowKeyPath(key), `${key}\n`);
};

export function sitemapIndexResponse(snapshot: Snapshot): Response {
  const s = siteSettings();
  return respond('/sitemap.xml', renderSitemapIndex(sitemapIndexEntries(snapshot, s.webUrl, s.sitemapMaxUrls)));
}

/**
 * Part by part (the provider file of a part, then its VIC file, ...): the two list the same
 * providers, read once for both while the part is at hand (sitemapProviderRows).
 */
export function sitemapPartParams(snapshot: Snapshot) {
  const s = siteSettings();
  const files = sitemapFiles(snapshot, s.sitemapMaxUrls);
  return files.toSorted((a, b) => a.part - b.part || files.indexOf(a) - files.indexOf(b)).map((f) => ({ params: { part: f.param } }));
}

export function sitemapPartResponse(snapshot: Snapshot, param: string): Response {
  const s = siteSettings();
  const file = parseSitemapParam(param);
  if (!file) return new Response('Not Found', { status: 404 });
  return respond(`/sitemap-${param}.xml`, renderUrlset(sitemapEntries(snapshot, file, s.webUrl, s.sitemapMaxUrls)));
}

