/**
 * Landing pages: one per programmatic pair of the snapshot, the full set (not the
 * API's capped list), at /{categorySlug}-terbaik-{citySlug}. Ranked like the
 * programmatic API: trust level, then rating, then slug (src/query/site-landing-lists.ts).
 */
import { categoryTree } from '../query/categories.ts';
import { programmaticParams, type ProgrammaticParam } from '../query/discovery.ts';
import { landingLists } from '../query/site-landing-lists.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import { breadcrumbJsonLd, itemListJsonLd, type Crumb, type JsonLd } from './jsonld.ts';
import { categoryPath, type PublicUrls } from '../web/urls.ts';

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

export function landingPage(snapshot: Snapshot, landing: string, urls: PublicUrls): LandingPage | undefined {
  const index = snapshot.memo('site:landing-by-param', () => new Map(programmaticParams(snapshot).map((p) => [p.path.slice(1), p])));
  const param = index.get(landing);
  if (!param) return undefined;
  const category = categoryTree(snapshot).bySlug.get(param.categorySlug)!;
  // The same list programmaticProviders ranks, read from the build's one ranked pass.
  const { data, total } = landingLists(snapshot).top(category.slug, param.citySlug, LANDING_LIMIT);
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
