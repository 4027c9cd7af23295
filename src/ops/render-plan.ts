/**
 * The incremental render plan: which pre-rendered URL paths must be rendered again
 * when only some providers changed. It looks only where a changed provider is,
 * before or after the change (the diff's ProviderFacts: categorySlugs with their
 * parents, citySlug), so its cost follows the size of the change, not of the
 * directory (issue 43: a million providers):
 *
 * - provider pages and VIC cards of providers added or updated;
 * - the category pages of their categories and the landing pages (top-level
 *   category x city) of their groups, old side and new: no other category or
 *   landing page lists them, counts them or charts them;
 * - provider pages of unchanged providers whose landing group moved (their
 *   "comparable providers" are the head of that landing list, and they link to
 *   it): what their cards show of the head of the group's list is compared on both
 *   snapshots (groupHead), for those groups only, and the group's providers are read
 *   from the new snapshot's published_facts;
 * - the provider and VIC sitemap files from the first changed slug on, or only
 *   those of the edited slugs (sitemap-plan.ts), and every taxonomy sitemap file;
 * - every path of the other routes (report pages, the key file): few.
 *
 * A page in scope whose bytes come out equal is not a change (render.ts compares
 * each rendered file with the previous release's). Pages that no longer exist are
 * removed by the manifest comparison in render.ts. The result must be
 * byte-identical to a full build; tests/ops/rebuild.test.ts compares the two trees.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Snapshot } from '../query/snapshot.ts';
import type { TouchedAggregates } from '../query/site-aggregates.ts';
import { categoryTree } from '../query/categories.ts';
import { programmaticHead } from '../query/discovery.ts';
import { COMPARABLE_HEAD, comparableCard, publishedSlugs } from '../query/site-providers.ts';
import { sitemapFileName } from '../site/sitemaps.ts';
import { categoryPath, landingPath, providerPath } from '../web/urls.ts';
import { touchedProviders, type SnapshotDiff } from './diff.ts';
import { sitemapPartsToRender } from './sitemap-plan.ts';

/** Routes whose pages the plan decides one by one; every other route is rendered whole. */
export const PLANNED_ROUTES = ['provider/[slug]', 'provider/[slug]/vic.json', 'kategori/[slug]', '[landing]', 'sitemap-[part].xml'] as const;

export interface RenderPlan {
  /** URL paths (and `prefix*` entries) for RENDER_SCOPE_FILE. */
  scope: string[];
  /** the categories and landing groups whose aggregates to recompute (src/query/site-aggregates.ts) */
  touched: TouchedAggregates;
  counts: { providers: number; dependentProviders: number; categories: number; landings: number; sitemapParts: number; otherRoutes: number };
}

/** The providers of the cities a change is in: the only ones a moved landing group can hold. */
const GROUP_MEMBERS_SQL = 'SELECT slug, category_slugs, city_slug FROM published_facts WHERE city_slug IN (SELECT value FROM json_each(?))';

/**
 * What provider pages show of a landing group: the cards of the head of its list, one more than
 * a page shows since a page leaves itself out (empty: no group). The group's path and category
 * name are fixed (an incremental render has the same categories) and its city's name is its
 * first provider's (every row of a city slug has the one name), so where these are equal on
 * both sides, so is every provider page's view of the group: an edit of a head provider's text
 * moves nothing. Read without the count (programmaticHead): the first rows of the city's rank walk.
 */
function groupHead(snapshot: Snapshot, group: { categorySlug: string; citySlug: string }) {
  // Only a top-level category names a landing group (a child's pair has none).
  const root = categoryTree(snapshot).roots.find((r) => r.node.slug === group.categorySlug);
  return root ? programmaticHead(snapshot, root.node, group.citySlug, COMPARABLE_HEAD).map(comparableCard) : [];
}

/**
 * The categories (with parents) and the landing groups a changed provider is in,
 * before or after the change. Only top-level slugs name a landing group; a child's
 * pair names none, renders nothing and has no aggregates.
 */
export function touchedAggregates(diff: SnapshotDiff): TouchedAggregates {
  const categorySlugs = new Set<string>();
  const groups = new Map<string, { categorySlug: string; citySlug: string }>();
  for (const p of touchedProviders(diff)) {
    for (const c of p.categorySlugs) {
      categorySlugs.add(c);
      if (p.citySlug) groups.set(landingPath(c, p.citySlug), { categorySlug: c, citySlug: p.citySlug });
    }
  }
  return { categorySlugs: [...categorySlugs], groups: [...groups.values()] };
}

/** `snaps`: the previous release's snapshot and the new one (the caller's, open; their memos serve the render's other reads). */
export function planIncremental(
  snaps: { old: Snapshot; new: Snapshot },
  diff: SnapshotDiff,
  /** the previous release's paths of every route but PLANNED_ROUTES, by route */
  unplanned: Record<string, string[]>,
  sitemapMaxUrls: number,
): RenderPlan {
  const scope = new Set<string>();
  const direct = [...diff.added, ...diff.updated.map((u) => u.after)].map((p) => p.slug);
  for (const slug of direct) scope.add(providerPath(slug));

  // The categories and landing groups a changed provider is in, before or after.
  const touched = touchedAggregates(diff);
  const categories = new Set(touched.categorySlugs.map(categoryPath));
  const groups = new Set(touched.groups.map((g) => landingPath(g.categorySlug, g.citySlug)));
  for (const path of [...categories, ...groups]) scope.add(path);

  // What a provider page takes from its landing groups: the head of the ranked list
  // (its "comparable providers") and the link to the landing page (path, category
  // name, city spelling: groupHead). Where that moved, every provider page of the group
  // is rendered again.
  let dependentProviders = 0;
  const moved = new Set(touched.groups.filter((g) => !isDeepStrictEqual(groupHead(snaps.old, g), groupHead(snaps.new, g))).map((g) => landingPath(g.categorySlug, g.citySlug)));
  const movedCities = JSON.stringify([...new Set([...touchedProviders(diff)].map((p) => p.citySlug).filter((c) => c !== null))]);
  for (const [slug, categorySlugs, citySlug] of snaps.new.prepare<[string], [string, string, string]>(GROUP_MEMBERS_SQL).raw().iterate(movedCities)) {
    const path = providerPath(slug);
    if (scope.has(path) || !(JSON.parse(categorySlugs) as string[]).some((c) => moved.has(landingPath(c, citySlug)))) continue;
    scope.add(path);
    dependentProviders++;
  }
  const sitemapParts = sitemapPartsToRender(publishedSlugs(snaps.new), diff, sitemapMaxUrls);

  let otherRoutes = 0;
  for (const paths of Object.values(unplanned)) {
    otherRoutes++;
    for (const p of paths) scope.add(p);
  }
  for (const part of sitemapParts) {
    scope.add(`/${sitemapFileName('providers', part)}`);
    scope.add(`/${sitemapFileName('vic', part)}`);
  }
  scope.add('/sitemap-taxonomy*');
  return {
    scope: [...scope].sort(),
    touched,
    counts: { providers: direct.length, dependentProviders, categories: categories.size, landings: groups.size, sitemapParts: sitemapParts.length, otherRoutes },
  };
}
