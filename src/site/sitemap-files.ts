/**
 * Which sitemap files a snapshot needs and what each one lists. Providers and VIC
 * cards are read in slug order one file at a time (at most 50,000 rows in memory);
 * the taxonomy file lists the home page, every usable category and subcategory
 * (with or without providers), every landing page and every report page.
 */
import { programmaticParams } from '../query/discovery.ts';
import { reportLastUpdated, reportListings } from '../query/reports.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { publishedCount, sitemapProviderRows, taxonomyLastmods, usableCategories } from '../query/site-taxonomy.ts';
import { latest, partCount, sitemapFileName, sitemapParam, SITEMAP_KINDS, type SitemapEntry, type SitemapKind } from './sitemaps.ts';
import { absoluteUrl, categoryPath, providerPath, reportPath, vicPath } from '../web/urls.ts';

export interface SitemapFile {
  kind: SitemapKind;
  part: number;
  /** e.g. sitemap-providers-2.xml */
  fileName: string;
  /** the route param of src/pages/sitemap-[part].xml.ts */
  param: string;
}

function taxonomyEntries(snapshot: Snapshot, webUrl: string): SitemapEntry[] {
  const lastmods = taxonomyLastmods(snapshot);
  const categories = usableCategories(snapshot).map(({ node }) => ({
    loc: absoluteUrl(webUrl, categoryPath(node.slug)),
    lastmod: lastmods.byCategory.get(node.id) ?? null,
  }));
  const landings = programmaticParams(snapshot).map((p) => ({
    loc: absoluteUrl(webUrl, p.path),
    lastmod: lastmods.byLanding.get(p.path) ?? null,
  }));
  const reports = reportListings(snapshot).map((r) => ({ loc: absoluteUrl(webUrl, reportPath(r.slug)), lastmod: reportLastUpdated(snapshot, r.slug) ?? null }));
  const everything = latest([...lastmods.byCategory.values()]);
  return [{ loc: absoluteUrl(webUrl, '/'), lastmod: everything }, ...categories, ...landings, ...reports];
}

function kindTotal(snapshot: Snapshot, kind: SitemapKind, webUrl: string): number {
  return kind === 'taxonomy' ? taxonomyEntries(snapshot, webUrl).length : publishedCount(snapshot);
}

export function sitemapFiles(snapshot: Snapshot, webUrl: string, maxUrls: number): SitemapFile[] {
  return SITEMAP_KINDS.flatMap((kind) => {
    const parts = partCount(kindTotal(snapshot, kind, webUrl), maxUrls);
    return Array.from({ length: parts }, (_, i) => ({
      kind,
      part: i + 1,
      fileName: sitemapFileName(kind, i + 1),
      param: sitemapParam(kind, i + 1),
    }));
  });
}

/** The URLs of one sitemap file. */
export function sitemapEntries(snapshot: Snapshot, file: Pick<SitemapFile, 'kind' | 'part'>, webUrl: string, maxUrls: number): SitemapEntry[] {
  const offset = (file.part - 1) * maxUrls;
  if (file.kind === 'taxonomy') return taxonomyEntries(snapshot, webUrl).slice(offset, offset + maxUrls);
  const path = file.kind === 'providers' ? providerPath : vicPath;
  return sitemapProviderRows(snapshot, offset, maxUrls).map((r) => ({ loc: absoluteUrl(webUrl, path(r.slug)), lastmod: r.lastmod }));
}

/** The index: every file, each with the latest lastmod of its URLs. */
export function sitemapIndexEntries(snapshot: Snapshot, webUrl: string, maxUrls: number): SitemapEntry[] {
  return sitemapFiles(snapshot, webUrl, maxUrls).map((f) => ({
    loc: absoluteUrl(webUrl, `/${f.fileName}`),
    lastmod: latest(sitemapEntries(snapshot, f, webUrl, maxUrls).map((e) => e.lastmod)),
  }));
}
