/**
 * The site's whole-snapshot aggregates: the landing groups (programmaticParams:
 * the landing pages, the home page's and category pages' landing links, the
 * taxonomy sitemap) and the taxonomy sitemap's dates (taxonomyLastmods). Each
 * reads every link of every published provider: seconds at a million providers,
 * for every page of a small publish that shows them. A group's figures depend on
 * its own providers only, and a category's date on its own links, so a release
 * keeps its aggregates (site-aggregates.json, src/ops/render.ts) and the next small
 * publish recomputes only the groups and categories its changed providers are in,
 * before or after (updatedSiteAggregates), then hands the result to the pages
 * through the memos those functions keep (seedSiteAggregates). The pages must
 * come out as a full render's: tests/ops/rebuild.test.ts compares the trees.
 */
import { categoryFilterIds, categoryTree, topLevelOf } from './categories.ts';
import { byProgrammaticOrder, landingPath, programmaticParams, PROGRAMMATIC_PARAMS_MEMO, TRUST_THRESHOLD, type ProgrammaticParam } from './discovery.ts';
import { landingListsOneAtATime } from './site-landing-lists.ts';
import { maxIso, taxonomyLastmods, TAXONOMY_LASTMODS_MEMO, type TaxonomyLastmods } from './site-taxonomy.ts';
import type { Snapshot } from './snapshot.ts';

export interface SiteAggregates {
  params: ProgrammaticParam[];
  /** category id -> latest date (TaxonomyLastmods.byCategory) */
  byCategory: Record<string, string>;
  /** landing path -> latest date (TaxonomyLastmods.byLanding) */
  byLanding: Record<string, string>;
}

/** What a change touched: the category slugs of its providers (with parents) and their landing groups, old side and new. */
export interface TouchedAggregates {
  categorySlugs: string[];
  groups: { categorySlug: string; citySlug: string }[];
}

export function siteAggregates(snapshot: Snapshot): SiteAggregates {
  const { byCategory, byLanding } = taxonomyLastmods(snapshot);
  return { params: programmaticParams(snapshot), byCategory: Object.fromEntries(byCategory), byLanding: Object.fromEntries(byLanding) };
}

const CATEGORY_DATES_SQL = `
  SELECT coalesce(p.updated_at, p.published_at) FROM published_summaries p
  WHERE p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc WHERE pc.category_id IN (SELECT value FROM json_each(?)))`;
// A landing group's rows: its city's, tested for the links (published_by_city_rank, as programmaticProviders reads them).
const LANDING_DATES_SQL = `
  SELECT coalesce(p.updated_at, p.published_at) FROM published_providers p
  WHERE p.city_slug = ? AND p.trust_level >= ${TRUST_THRESHOLD}
    AND EXISTS (SELECT 1 FROM provider_categories pc WHERE pc.provider_rowid = p.rowid AND pc.category_id IN (SELECT value FROM json_each(?)))`;

const latestOf = (values: string[]) => values.reduce<string | undefined>((best, d) => maxIso(best, d), undefined);

/** The aggregates of `snapshot`, from those of the snapshot before it and what changed between the two. */
export function updatedSiteAggregates(snapshot: Snapshot, previous: SiteAggregates, touched: TouchedAggregates): SiteAggregates {
  const tree = categoryTree(snapshot);
  const byCategory = { ...previous.byCategory };
  for (const slug of touched.categorySlugs) {
    const node = tree.bySlug.get(slug);
    if (!node) continue;
    // As taxonomyLastmods folds them: a category's own links, and those of every category counting under it.
    const ids = [node.id, ...[...tree.byId.keys()].filter((id) => id !== node.id && topLevelOf(tree, id)?.id === node.id)];
    const latest = latestOf(snapshot.prepare<[string], string>(CATEGORY_DATES_SQL).pluck().all(JSON.stringify(ids)));
    if (latest === undefined) delete byCategory[node.id];
    else byCategory[node.id] = latest;
  }
  const byLanding = { ...previous.byLanding };
  const params = new Map(previous.params.map((p) => [p.path, p]));
  const lists = landingListsOneAtATime(snapshot);
  for (const { categorySlug, citySlug } of touched.groups) {
    const path = landingPath(categorySlug, citySlug);
    const param = lists.param(categorySlug, citySlug);
    if (!param) {
      params.delete(path);
      delete byLanding[path];
      continue;
    }
    params.set(path, param);
    const ids = categoryFilterIds(tree, tree.bySlug.get(categorySlug)!);
    byLanding[path] = latestOf(snapshot.prepare<[string, string], string>(LANDING_DATES_SQL).pluck().all(citySlug, JSON.stringify(ids)))!;
  }
  return { params: [...params.values()].sort(byProgrammaticOrder), byCategory, byLanding };
}

/** Makes programmaticParams and taxonomyLastmods of `snapshot` answer these (before anything asks them). */
export function seedSiteAggregates(snapshot: Snapshot, aggregates: SiteAggregates): void {
  snapshot.memo(PROGRAMMATIC_PARAMS_MEMO, () => aggregates.params);
  snapshot.memo<TaxonomyLastmods>(TAXONOMY_LASTMODS_MEMO, () => ({
    byCategory: new Map(Object.entries(aggregates.byCategory)),
    byLanding: new Map(Object.entries(aggregates.byLanding)),
  }));
}
