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
 *   it): the group's page data is compared on both snapshots with the site's own
 *   page-data function (src/site/landing-page.ts), for those groups only;
 * - every path of the other routes (report pages, sitemaps, the key file): few.
 *
 * A page in scope whose bytes come out equal is not a change (render.ts compares
 * each rendered file with the previous release's). Pages that no longer exist are
 * removed by the manifest comparison in render.ts. The result must be
 * byte-identical to a full build; tests/ops/rebuild.test.ts compares the two trees.
 */
import { isDeepStrictEqual } from 'node:util';
import { Snapshot } from '../query/snapshot.ts';
import { landingPage, type LandingPage } from '../site/landing-page.ts';
import { categoryPath, landingPath, providerPath, type PublicUrls } from '../web/urls.ts';
import { touchedProviders, type SnapshotDiff, type SnapshotFacts } from './diff.ts';

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

export function planIncremental(
  oldFile: string,
  newFile: string,
  diff: SnapshotDiff,
  newFacts: SnapshotFacts,
  previousManifest: Record<string, string[]>,
  urls: PublicUrls,
): RenderPlan {
  const scope = new Set<string>();
  const direct = [...diff.added, ...diff.updated.map((u) => u.after)].map((p) => p.slug);
  for (const slug of direct) scope.add(providerPath(slug));

  // The categories and landing groups a changed provider is in, before or after.
  const categories = new Set<string>();
  const groups = new Set<string>();
  for (const p of touchedProviders(diff)) {
    for (const c of p.categorySlugs) {
      categories.add(categoryPath(c));
      // Only top-level slugs name a landing group; a child's path names none and renders nothing.
      if (p.citySlug) groups.add(landingPath(c, p.citySlug));
    }
  }
  for (const path of [...categories, ...groups]) scope.add(path);

  // What a provider page takes from its landing groups: the head of the ranked list
  // (its "comparable providers") and the link to the landing page (path, category
  // name, city spelling). Where that moved, every provider page of the group is
  // rendered again.
  const snaps = { old: new Snapshot(oldFile), new: new Snapshot(newFile) };
  let moved: Set<string>;
  try {
    const view = (side: 'old' | 'new', path: string) => groupView(landingPage(snaps[side], path.slice(1), urls));
    moved = new Set([...groups].filter((path) => !isDeepStrictEqual(view('old', path), view('new', path))));
  } finally {
    snaps.old.close();
    snaps.new.close();
  }
  let dependentProviders = 0;
  for (const p of newFacts.providers.values()) {
    const path = providerPath(p.slug);
    if (scope.has(path) || !p.citySlug) continue;
    if (!p.categorySlugs.some((c) => moved.has(landingPath(c, p.citySlug!)))) continue;
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
    counts: { providers: direct.length, dependentProviders, categories: categories.size, landings: groups.size, otherRoutes },
  };
}
