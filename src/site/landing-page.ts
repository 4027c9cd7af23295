/**
 * Landing pages: one per programmatic pair of the snapshot, the full set (not the
 * API's capped list), at /{categorySlug}-terbaik-{citySlug}. Ranked like the
 * programmatic API: trust level, then rating, then slug (src/query/site-landing-lists.ts).
 */
import { categoryTree } from '../query/categories.ts';
import { programmaticParams, type ProgrammaticParam } from '../query/discovery.ts';
import { landingListsFor, landingListsInOnePass, type LandingLists } from '../query/site-landing-lists.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import { breadcrumbJsonLd, itemListJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import { categoryPath, type PublicUrls } from '../web/urls.ts';
import { pageRenderScope } from './settings.ts';

/** Most providers a landing page lists; the rest are one search away. */
export const LANDING_LIMIT = 50;

/** The route param: the path without its leading slash. */
export const landingParams = (snapshot: Snapshot) => programmaticParams(snapshot).map((p) => ({ params: { landing: p.path.slice(1) } }));

export interface LandingPage {
  param: ProgrammaticParam;
  categoryName: string;
  providers: ProviderSummary[];
  total: number;
  title: string;
  description: string;
  crumbs: Crumb[];
  jsonLd: JsonLd[];
}

/**
 * The landing lists the pages of this build read: all in one pass for a full
 * build, one at a time for a render of a few groups' pages (a small publish's scope).
 */
export function siteLandingLists(snapshot: Snapshot): LandingLists {
  const { listed } = pageRenderScope();
  if (listed === null) return landingListsInOnePass(snapshot);
  const groups = snapshot.memo('site:scope-landing-groups', () => [...listed.exact].filter((p) => landingGroupOf(snapshot, p.slice(1)) !== undefined).length);
  return landingListsFor(snapshot, groups);
}

/** The group a landing param names: `{categorySlug}-terbaik-{citySlug}` (the longest top-level slug that fits). */
function landingGroupOf(snapshot: Snapshot, landing: string): { categorySlug: string; citySlug: string } | undefined {
  let found: { categorySlug: string; citySlug: string } | undefined;
  for (const { node } of categoryTree(snapshot).roots) {
    const prefix = `${node.slug}-terbaik-`;
    if (landing.startsWith(prefix) && landing.length > prefix.length && (!found || node.slug.length > found.categorySlug.length)) {
      found = { categorySlug: node.slug, citySlug: landing.slice(prefix.length) };
    }
  }
  return found;
}

export function landingPage(snapshot: Snapshot, landing: string, urls: PublicUrls, lists: LandingLists): LandingPage | undefined {
  const group = landingGroupOf(snapshot, landing);
  const param = group && lists.param(group.categorySlug, group.citySlug);
  if (!param) return undefined;
  const category = categoryTree(snapshot).bySlug.get(param.categorySlug)!;
  // The same list programmaticProviders ranks.
  const { data, total } = lists.top(category.slug, param.citySlug, LANDING_LIMIT);
  const { webUrl } = urls;
  const title = `${category.name} terbaik di ${param.city}`;
  const crumbs: Crumb[] = [
    { name: 'Beranda', path: '/' },
    { name: category.name, path: categoryPath(category.slug) },
    { name: title, path: param.path },
  ];
  return {
    param,
    categoryName: category.name,
    providers: data,
    total,
    title,
    description: `${total} penyedia ${category.name} di ${param.city}, diurutkan menurut tingkat kepercayaan lalu rating. Tanpa penempatan berbayar.`,
    crumbs,
    jsonLd: [itemListJsonLd(title, data, webUrl), breadcrumbJsonLd(crumbs, webUrl)],
  };
}
