/**
 * The incremental render plan: which pre-rendered URL paths must be rendered again
 * when only some providers changed. A page is re-rendered when the data its route
 * renders differs between the live snapshot and the new one, computed with the
 * site's own page-data functions (src/site/*-page.ts), so the plan follows the
 * pages' real dependencies instead of guessing them:
 *
 * - provider pages and VIC cards of providers added or updated;
 * - provider pages of unchanged providers whose landing group moved (their
 *   "comparable providers" are the head of that landing list, and they link to it);
 * - category and landing pages whose page data differs (or that are new);
 * - every path of the other routes (sitemaps, the key file): few and cheap.
 *
 * Pages that no longer exist are removed from the copied tree by the manifest
 * comparison in render.ts. The result must be byte-identical to a full build;
 * tests/ops/rebuild.test.ts compares the two trees.
 */
import { isDeepStrictEqual } from 'node:util';
import { Snapshot } from '../query/snapshot.ts';
import { categoryPage, categoryParams } from '../site/category-page.ts';
import { landingPage, landingParams, type LandingPage } from '../site/landing-page.ts';
import { categoryPath, landingPath, providerPath, type PublicUrls } from '../web/urls.ts';
import type { SnapshotDiff, SnapshotFacts } from './diff.ts';

/** Routes whose pages the plan decides one by one; every other route is rendered whole. */
export const PLANNED_ROUTES = ['provider/[slug]', 'provider/[slug]/vic.json', 'kategori/[slug]', '[landing]'] as const;

export interface RenderPlan {
  /** URL paths (and `prefix*` entries) for RENDER_SCOPE_FILE. */
  scope: string[];
  counts: { providers: number; dependentProviders: number; categories: number; landings: number; otherRoutes: number };
}

/** The head of a landing list that provider pages show; generous on purpose (they show 4). */
const GROUP_HEAD = 8;

function groupView(page: LandingPage | undefined) {
  if (!page) return undefined;
  return { path: page.param.path, city: page.param.city, categoryName: page.categoryName, head: page.providers.slice(0, GROUP_HEAD) };
}

/** Keys of the new side whose page data is new or differs from the old side. */
function changedKeys<T>(keysOld: string[], keysNew: string[], read: (s: 'old' | 'new', key: string) => T | undefined): string[] {
  const before = new Set(keysOld);
  return keysNew.filter((key) => !before.has(key) || !isDeepStrictEqual(read('old', key), read('new', key)));
}

export function planIncremental(
  oldFile: string,
  newFile: string,
  diff: SnapshotDiff,
  newFacts: SnapshotFacts,
  previousManifest: Record<string, string[]>,
  urls: PublicUrls,
): RenderPlan {
  const snaps = { old: new Snapshot(oldFile), new: new Snapshot(newFile) };
  try {
    const scope = new Set<string>();
    const direct = [...diff.added, ...diff.updated.map((u) => u.after)].map((p) => p.slug);
    for (const slug of direct) scope.add(providerPath(slug));

    const categorySlugs = (s: Snapshot) => categoryParams(s).map((p) => p.params.slug);
    const categories = changedKeys(categorySlugs(snaps.old), categorySlugs(snaps.new), (s, k) => categoryPage(snaps[s], k, urls));
    for (const slug of categories) scope.add(categoryPath(slug));

    const landingKeys = (s: Snapshot) => landingParams(s).map((p) => p.params.landing);
    const oldLandings = landingKeys(snaps.old);
    const newLandings = landingKeys(snaps.new);
    const pages = { old: new Map<string, LandingPage | undefined>(), new: new Map<string, LandingPage | undefined>() };
    const landingOf = (side: 'old' | 'new', key: string) => {
      if (!pages[side].has(key)) pages[side].set(key, landingPage(snaps[side], key, urls));
      return pages[side].get(key);
    };
    const landings = changedKeys(oldLandings, newLandings, landingOf);
    for (const key of landings) scope.add(`/${key}`);

    // What a provider page takes from its landing groups (category x city): the head
    // of the ranked list (its "comparable providers") and the link to the landing page
    // (path, category name, city spelling). Where that moved, every provider page of
    // the group is rendered again; tests/ops/rebuild.test.ts proves the output equal
    // to a full render.
    const stillThere = new Set(newLandings);
    const movedGroups = new Set(
      [...landings.filter((k) => !isDeepStrictEqual(groupView(landingOf('old', k)), groupView(landingOf('new', k)))), ...oldLandings.filter((k) => !stillThere.has(k))].map(
        (k) => `/${k}`,
      ),
    );
    let dependentProviders = 0;
    for (const p of newFacts.providers.values()) {
      const path = providerPath(p.slug);
      if (scope.has(path) || !p.citySlug) continue;
      if (!p.categorySlugs.some((c) => movedGroups.has(landingPath(c, p.citySlug!)))) continue;
      scope.add(path);
      dependentProviders++;
    }

    let otherRoutes = 0;
    for (const [route, paths] of Object.entries(previousManifest)) {
      if ((PLANNED_ROUTES as readonly string[]).includes(route)) continue;
      otherRoutes++;
      for (const p of paths) scope.add(p);
    }
    // Routes unknown to the previous release, and every sitemap part (their number can grow).
    scope.add('/sitemap*');
    return {
      scope: [...scope].sort(),
      counts: { providers: direct.length, dependentProviders, categories: categories.length, landings: landings.length, otherRoutes },
    };
  } finally {
    snaps.old.close();
    snaps.new.close();
  }
}
