/**
 * What a pre-rendered provider page shows, for 100,000 pages in one build: the
 * same data as providerPageData (src/query/site-providers.ts), read for 512 pages
 * at a time (provider-page-rows.ts) instead of with lookups per page, while the
 * landing lists it borrows from ("comparable providers", "listed on") come from
 * the build's landing lists (siteLandingLists: one ranked pass over the snapshot
 * for a full build, a ranking query per list for a small publish). Pages are
 * byte-identical either way.
 */
import { categoryTree, toCategoryRef, topLevelOf, usableCategory, type CategoryNode } from '../query/categories.ts';
import { landingPath, TRUST_THRESHOLD } from '../query/discovery.ts';
import { displayableMinBudget, toProviderDetail } from '../query/projections.ts';
import type { ProviderRow } from '../query/provider-row.ts';
import type { LandingLists } from '../query/site-landing-lists.ts';
import { COMPARABLE_HEAD, comparableCards, publishedSlugs, type ComparableCard } from '../query/site-providers.ts';
import type { LandingLink, ProviderPageData } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { providerPath } from '../web/urls.ts';
import { siteLandingLists } from './landing-page.ts';
import { providerPageRows } from './provider-page-rows.ts';
import { pageRenderScope } from './settings.ts';

/** How the pages of one build read: its landing lists, and the slugs it renders (in order) for the chunked row reads. */
export interface ProviderPageReads {
  lists: LandingLists;
  pageSlugs: () => string[];
}

/**
 * This build's reads: every published provider, or the few of a small publish's scope: the
 * provider pages it lists, in slug order, found without reading every slug (a page not among
 * them still renders: its rows are read alone, providerPageRows).
 */
export function siteProviderPageReads(snapshot: Snapshot): ProviderPageReads {
  const { listed } = pageRenderScope();
  const prefix = providerPath('');
  return {
    lists: siteLandingLists(snapshot),
    pageSlugs:
      listed === null
        ? () => publishedSlugs(snapshot)
        : () => [...listed.exact].filter((p) => p.startsWith(prefix) && !p.includes('/', prefix.length)).map((p) => p.slice(prefix.length)).sort(),
  };
}

export function providerPageData(snapshot: Snapshot, slug: string, reads: ProviderPageReads): ProviderPageData | undefined {
  const { lists } = reads;
  const rows = providerPageRows(snapshot, slug, reads.pageSlugs);
  if (!rows) return undefined;
  const { row, categoryIds, proofs } = rows;
  const tree = categoryTree(snapshot);
  // The provider's usable categories, as providerCategories (src/query/categories.ts) gives them.
  const categories = categoryIds
    .map((id) => tree.byId.get(id))
    .filter((n): n is CategoryNode => n !== undefined && usableCategory(tree, n.slug) !== undefined)
    .map(toCategoryRef);
  // Top-level categories of the links, in link order (primary first).
  const tops = categoryIds.map((id) => topLevelOf(tree, id)).filter((c): c is CategoryNode => c !== undefined);
  return {
    detail: toProviderDetail(row, categories),
    minProjectBudgetIdr: displayableMinBudget(row),
    proofs,
    comparable: comparableProviders(lists, row, tops[0]),
    landings: landingLinks(lists, row, tops),
  };
}

/** The head of the primary landing list (same top-level category and city), without the provider itself. */
function comparableProviders(lists: LandingLists, row: ProviderRow, primary: CategoryNode | undefined): ComparableCard[] {
  if (!row.city_slug || !primary) return [];
  return comparableCards(lists.top(primary.slug, row.city_slug, COMPARABLE_HEAD).data, row.slug);
}

/** Landing pages that list this provider: its top-level categories in its city. */
function landingLinks(lists: LandingLists, row: ProviderRow, tops: CategoryNode[]): LandingLink[] {
  if (row.trust_level < TRUST_THRESHOLD || !row.city_slug) return [];
  const links = new Map<string, LandingLink>();
  for (const top of tops) {
    const path = landingPath(top.slug, row.city_slug);
    const param = lists.param(top.slug, row.city_slug);
    if (param && !links.has(path)) links.set(path, { path, categoryName: top.name, city: param.city });
  }
  return [...links.values()];
}
