/**
 * Which sitemap files a snapshot needs and what each one lists. Providers and VIC
 * cards are read in slug order one file at a time (at most 50,000 rows in memory);
 * the taxonomy file lists the home page, every usable category and subcategory
 * (with or without providers), every landing page and every report page.
 * The index's dates of the provider and VIC files come from one read of the
 * published dates in slug order, not from building every file's URLs.
 */
import { programmaticParams } from '../query/discovery.ts';
import { reportLastUpdated, reportListings } from '../query/reports.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { publishedCount, publishedLastmodsBySlug, sitemapProviderRows, taxonomyLastmods, usableCategories } from '../query/site-taxonomy.ts';
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

/** As many as taxonomyEntries lists, without reading the dates. */
const taxonomyCount = (snapshot: Snapshot) => 1 + usableCategories(snapshot).length + programmaticParams(snapshot).length + reportListings(snapshot).length;

const kindTotal = (snapshot: Snapshot, kind: SitemapKind): number => (kind === 'taxonomy' ? taxonomyCount(snapshot) : publishedCount(snapshot));

export function sitemapFiles(snapshot: Snapshot, maxUrls: number): SitemapFile[] {
  return SITEMAP_KINDS.flatMap((kind) => {
    const parts = partCount(kindTotal(snapshot, kind), maxUrls);
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
  // Provider and VIC files list the same providers in the same order: one read of their dates serves both.
  const lastmods = publishedLastmodsBySlug(snapshot);
  const taxonomy = taxonomyEntries(snapshot, webUrl);
  return sitemapFiles(snapshot, maxUrls).map((f) => {
    const from = (f.part - 1) * maxUrls;
    const dates = f.kind === 'taxonomy' ? taxonomy.slice(from, from + maxUrls).map((e) => e.lastmod) : lastmods.slice(from, from + maxUrls);
    return { loc: absoluteUrl(webUrl, `/${f.fileName}`), lastmod: latest(dates) };
  });
}
