/**
 * Programmatic discovery: category x city combinations for landing pages, and the
 * providers of one combination. Only published providers with trustLevel >= 1 and
 * a city count; a child category counts under its active parent (an inactive
 * category, or a child of an inactive parent, does not count). One citySlug
 * normalization (src/text/city-slug.ts) is shared with the static pages.
 */
import type { ProviderSummary } from '../schemas/provider.ts';
import { categoryFilterIds, categoryTree, topLevelOf, type CategoryNode } from './categories.ts';
import { citySlug, mostCommonSpelling } from '../text/city-slug.ts';
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

const LINKS_SQL = `
  SELECT p.rowid AS rowid, p.city AS city, pc.category_id AS categoryId
  FROM published_providers p
  JOIN provider_categories pc ON pc.provider_rowid = p.rowid
  WHERE p.trust_level >= ${TRUST_THRESHOLD} AND p.city IS NOT NULL AND trim(p.city) <> ''`;

export const landingPath = (categorySlug: string, slugOfCity: string) => `/${categorySlug}-terbaik-${slugOfCity}`;

/** Every combination, ordered by provider count desc, then path (computed once per snapshot). */
export function programmaticParams(snapshot: Snapshot): ProgrammaticParam[] {
  return snapshot.memo('discovery:params', () => {
    const tree = categoryTree(snapshot);
    const groups = new Map<string, { category: string; citySlug: string; providers: Set<number>; spellings: Map<string, number> }>();
    const rows = snapshot.prepare<[], { rowid: number; city: string; categoryId: string }>(LINKS_SQL).all();
    const seenSpelling = new Set<string>();
    for (const r of rows) {
      const top = topLevelOf(tree, r.categoryId);
      const slugOfCity = citySlug(r.city);
      if (!top || slugOfCity === '') continue;
      const key = `${top.slug}\u0000${slugOfCity}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { category: top.slug, citySlug: slugOfCity, providers: new Set(), spellings: new Map() }));
      g.providers.add(r.rowid);
      // A provider's spelling counts once per combination, however many categories link it.
      const spellingKey = `${key}\u0000${r.rowid}`;
      if (!seenSpelling.has(spellingKey)) {
        seenSpelling.add(spellingKey);
        g.spellings.set(r.city, (g.spellings.get(r.city) ?? 0) + 1);
      }
    }
    const params = [...groups.values()].map((g) => ({
      categorySlug: g.category,
      city: mostCommonSpelling(g.spellings),
      citySlug: g.citySlug,
      path: landingPath(g.category, g.citySlug),
      providerCount: g.providers.size,
    }));
    return params.sort((a, b) => b.providerCount - a.providerCount || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}

const PROVIDERS_SQL = (cityClause: string) => `
  FROM published_providers p
  WHERE p.trust_level >= ${TRUST_THRESHOLD}
    AND ${cityClause}
    AND p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc
                    WHERE pc.category_id IN (SELECT value FROM json_each(:categoryIds)))`;

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
      `SELECT p.* ${from} ORDER BY p.trust_level DESC, p.overall_rating DESC, p.slug ASC LIMIT :limit OFFSET :offset`,
    )
    .all({ ...params, limit: page.limit, offset });
  return { data: rows.map(toBusinessSummary), total, totalPages: totalPages(total, page.limit) };
}
