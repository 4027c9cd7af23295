/**
 * What a pre-rendered provider page shows, for 100,000 pages in one build: the
 * same data as providerPageData (src/query/site-providers.ts), read for 512 pages
 * at a time (provider-page-rows.ts) instead of with lookups per page, while the
 * landing lists it borrows from ("comparable providers", "listed on") come from
 * one ranked pass over the snapshot (src/query/site-landing-lists.ts) instead of
 * a ranking query per list. Pages are byte-identical to the per-list version.
 */
import { categoryTree, toCategoryRef, topLevelOf, usableCategory, type CategoryNode } from '../query/categories.ts';
import { landingPath, programmaticParams, TRUST_THRESHOLD, type ProgrammaticParam } from '../query/discovery.ts';
import { displayableMinBudget, toProviderDetail } from '../query/projections.ts';
import type { ProviderRow } from '../query/provider-row.ts';
import { landingLists } from '../query/site-landing-lists.ts';
import type { LandingLink, ProviderPageData } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import { providerPageRows } from './provider-page-rows.ts';

const COMPARABLE_COUNT = 4;

export function providerPageData(snapshot: Snapshot, slug: string): ProviderPageData | undefined {
  const rows = providerPageRows(snapshot, slug);
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
    comparable: comparableProviders(snapshot, row, tops[0]),
    landings: landingLinks(snapshot, row, tops),
  };
}

/** The head of the primary landing list (same top-level category and city), without the provider itself. */
function comparableProviders(snapshot: Snapshot, row: ProviderRow, primary: CategoryNode | undefined): ProviderSummary[] {
  if (!row.city_slug || !primary) return [];
  const { data } = landingLists(snapshot).top(primary.slug, row.city_slug, COMPARABLE_COUNT + 1);
  return data.filter((p) => p.slug !== row.slug).slice(0, COMPARABLE_COUNT);
}

/** Landing pages that list this provider: its top-level categories in its city. */
function landingLinks(snapshot: Snapshot, row: ProviderRow, tops: CategoryNode[]): LandingLink[] {
  if (row.trust_level < TRUST_THRESHOLD || !row.city_slug) return [];
  const byPath = landingIndex(snapshot);
  const links = new Map<string, LandingLink>();
  for (const top of tops) {
    const path = landingPath(top.slug, row.city_slug);
    const param = byPath.get(path);
    if (param && !links.has(path)) links.set(path, { path, categoryName: top.name, city: param.city });
  }
  return [...links.values()];
}

const landingIndex = (snapshot: Snapshot): Map<string, ProgrammaticParam> =>
  snapshot.memo('site:landing-index', () => new Map(programmaticParams(snapshot).map((p) => [p.path, p])));
