/**
 * Programmatic discovery: category x city combinations for landing pages, and the
 * providers of one combination. Only published providers with trustLevel >= 1 and
 * a city count; a child category counts under its active parent (an inactive
 * category, or a child of an inactive parent, does not count). One citySlug
 * normalization (src/text/city-slug.ts, providers.city_slug) is shared with the
 * static pages, and each city is named by providers.city_name.
 */
import type { ProviderSummary } from '../schemas/provider.ts';
import { categoryFilterIds, categoryTree, topLevelOf, type CategoryNode } from './categories.ts';
import { toBusinessSummary } from './projections.ts';
import type { ProviderRow } from './provider-row.ts';
import { totalPages } from './providers.ts';
import type { Snapshot } from './snapshot.ts';

export const TRUST_THRESHOLD = 1;

export interface ProgrammaticParam {
  categorySlug: string;
  city: string;
  citySlug: string;
  path: string;
  providerCount: number;
}

/** The directory's rank (trust level, rating, then slug) over published_providers p: every ranked list's order. */
export const RANK_ORDER = 'ORDER BY p.trust_level DESC, p.overall_rating DESC, p.slug ASC';

// Every link of a listed provider. The counts need no order; asked in rank order, the planner
// walks the covering published_by_rank (schema.sql) instead of fetching each wide row
// (1,000,000 providers: 7.6 s -> 2.8 s).
const LINKS_SQL = `
  SELECT p.rowid AS rowid, p.city_slug AS citySlug, p.city_name AS city, pc.category_id AS categoryId
  FROM published_providers p
  JOIN provider_categories pc ON pc.provider_rowid = p.rowid
  WHERE p.trust_level >= ${TRUST_THRESHOLD} AND p.city_slug IS NOT NULL
  ${RANK_ORDER}`;

export const landingPath = (categorySlug: string, slugOfCity: string) => `/${categorySlug}-terbaik-${slugOfCity}`;

/** The order of programmaticParams: provider count desc, then path. */
export const byProgrammaticOrder = (a: ProgrammaticParam, b: ProgrammaticParam) =>
  b.providerCount - a.providerCount || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The memo programmaticParams keeps its answer in (a small publish hands it in: src/query/site-aggregates.ts). */
export const PROGRAMMATIC_PARAMS_MEMO = 'discovery:params';

/** Every combination, ordered by provider count desc, then path (computed once per snapshot). */
export function programmaticParams(snapshot: Snapshot): ProgrammaticParam[] {
  return snapshot.memo(PROGRAMMATIC_PARAMS_MEMO, () => {
    const tree = categoryTree(snapshot);
    const groups = new Map<string, ProgrammaticParam & { providers: Set<number> }>();
    const rows = snapshot.prepare<[], { rowid: number; citySlug: string; city: string; categoryId: string }>(LINKS_SQL).all();
    for (const r of rows) {
      const top = topLevelOf(tree, r.categoryId);
      if (!top) continue;
      const key = `${top.slug}\u0000${r.citySlug}`;
      let g = groups.get(key);
      // Every spelling of a citySlug has the one name shown (src/snapshot/place-names.ts).
      if (!g) groups.set(key, (g = { categorySlug: top.slug, city: r.city, citySlug: r.citySlug, path: landingPath(top.slug, r.citySlug), providerCount: 0, providers: new Set() }));
      g.providers.add(r.rowid);
    }
    const params = [...groups.values()].map(({ providers, ...param }) => ({ ...param, providerCount: providers.size }));
    return params.sort(byProgrammaticOrder);
  });
}

// A provider is in the list when any of its links is to one of the categoryIds. Asked per row
// (EXISTS), so the planner walks the city's rows in rank order (published_by_city_rank,
// schema.sql) and stops at the page's end, instead of reading every row of the category.
const PROVIDERS_SQL = (cityClause: string) => `
  FROM published_providers p
  WHERE ${cityClause}
    AND p.trust_level >= ${TRUST_THRESHOLD}
    AND EXISTS (SELECT 1 FROM provider_categories pc
                WHERE pc.provider_rowid = p.rowid AND pc.category_id IN (SELECT value FROM json_each(:categoryIds)))`;

/** The first `limit` providers of one combination (as programmaticProviders ranks them), without counting the rest. */
export function programmaticHead(snapshot: Snapshot, category: CategoryNode, citySlug: string, limit: number): ProviderSummary[] {
  const categoryIds = JSON.stringify(categoryFilterIds(categoryTree(snapshot), category));
  return snapshot
    .prepare<[Record<string, unknown>], ProviderRow>(`SELECT p.* ${PROVIDERS_SQL('p.city_slug = :citySlug')} ${RANK_ORDER} LIMIT :limit`)
    .all({ categoryIds, citySlug, limit })
    .map(toBusinessSummary);
}

/** Providers of one combination: trust desc, rating desc, then slug. */
export function programmaticProviders(
  snapshot: Snapshot,
  category: CategoryNode,
  city: { citySlug: string; city?: string },
  page: { page: number; limit: number },
): { data: ProviderSummary[]; total: number; totalPages: number } {
  const cityClause = city.city !== undefined ? 'p.city = :city COLLATE NOCASE' : 'p.city_slug = :citySlug';
  const params = {
    categoryIds: JSON.stringify(categoryFilterIds(categoryTree(snapshot), category)),
    ...(city.city !== undefined ? { city: city.city } : { citySlug: city.citySlug }),
  };
  const from = PROVIDERS_SQL(cityClause);
  const total = snapshot.prepare<[Record<string, unknown>], { n: number }>(`SELECT count(*) AS n ${from}`).get(params)?.n ?? 0;
  const offset = (page.page - 1) * page.limit;
  if (offset >= total) return { data: [], total, totalPages: totalPages(total, page.limit) };
  const rows = snapshot
    .prepare<[Record<string, unknown>], ProviderRow>(
      `SELECT p.* ${from} ${RANK_ORDER} LIMIT :limit OFFSET :offset`,
    )
    .all({ ...params, limit: page.limit, offset });
  return { data: rows.map(toBusinessSummary), total, totalPages: totalPages(total, page.limit) };
}
