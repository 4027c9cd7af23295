/**
 * Site-only reads for category pages, landing pages and the taxonomy sitemap:
 * every usable category (active; a child only under an active parent), the top
 * providers of a category, and `lastmod` dates taken from the data (the latest
 * updatedAt/publishedAt of the providers a page lists), never from the clock.
 */
import type { ProviderSummary } from '../schemas/provider.ts';
import { categoryFilterIds, categoryTree, topLevelOf, type CategoryNode } from './categories.ts';
import { landingPath, TRUST_THRESHOLD } from './discovery.ts';
import { toBusinessSummary } from './projections.ts';
import type { ProviderRow } from './provider-row.ts';
import type { Snapshot } from './snapshot.ts';

export interface UsableCategory {
  node: CategoryNode;
  parent: CategoryNode | null;
  children: CategoryNode[];
}

/** Active top-level categories, each followed by its active children, in dataset order. */
export function usableCategories(snapshot: Snapshot): UsableCategory[] {
  return snapshot.memo('site:usable-categories', () =>
    categoryTree(snapshot).roots.flatMap(({ node, children }) => [
      { node, parent: null, children },
      ...children.map((child) => ({ node: child, parent: node, children: [] })),
    ]),
  );
}

const CATEGORY_PROVIDERS_SQL = `
  FROM published_providers p
  WHERE p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc
                    WHERE pc.category_id IN (SELECT value FROM json_each(:ids)))`;

/** A category's providers (children included for a parent): trust, rating, then slug. */
export function categoryProviders(snapshot: Snapshot, node: CategoryNode, limit: number): { data: ProviderSummary[]; total: number } {
  const ids = JSON.stringify(categoryFilterIds(categoryTree(snapshot), node));
  const total = snapshot.prepare<[{ ids: string }], { n: number }>(`SELECT count(*) AS n ${CATEGORY_PROVIDERS_SQL}`).get({ ids })?.n ?? 0;
  const rows = snapshot
    .prepare<[{ ids: string; limit: number }], ProviderRow>(
      `SELECT p.* ${CATEGORY_PROVIDERS_SQL} ORDER BY p.trust_level DESC, p.overall_rating DESC, p.slug ASC LIMIT :limit`,
    )
    .all({ ids, limit });
  return { data: rows.map(toBusinessSummary), total };
}

const LASTMOD_BY_CATEGORY_CITY_SQL = `
  SELECT pc.category_id AS categoryId, p.city_slug AS citySlug, p.trust_level >= ${TRUST_THRESHOLD} AS listed,
         max(coalesce(p.updated_at, p.published_at)) AS lastmod
  FROM provider_categories pc
  JOIN published_providers p ON p.rowid = pc.provider_rowid
  GROUP BY pc.category_id, p.city_slug, listed`;

export const maxIso = (a: string | undefined, b: string) => (a === undefined || normalizeIso(b) > normalizeIso(a) ? b : a);
const normalizeIso = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? '' : new Date(t).toISOString();
};

export interface TaxonomyLastmods {
  /** category id -> latest date of its providers (children folded into parents). */
  byCategory: Map<string, string>;
  /** landing path -> latest date of the providers it lists. */
  byLanding: Map<string, string>;
}

/** The memo taxonomyLastmods keeps its answer in (a small publish hands it in: src/query/site-aggregates.ts). */
export const TAXONOMY_LASTMODS_MEMO = 'site:taxonomy-lastmods';

export function taxonomyLastmods(snapshot: Snapshot): TaxonomyLastmods {
  return snapshot.memo(TAXONOMY_LASTMODS_MEMO, () => {
    const tree = categoryTree(snapshot);
    const byCategory = new Map<string, string>();
    const byLanding = new Map<string, string>();
    const rows = snapshot
      .prepare<[], { categoryId: string; citySlug: string | null; listed: number; lastmod: string }>(LASTMOD_BY_CATEGORY_CITY_SQL)
      .all();
    for (const r of rows) {
      byCategory.set(r.categoryId, maxIso(byCategory.get(r.categoryId), r.lastmod));
      const top = topLevelOf(tree, r.categoryId);
      if (!top) continue;
      if (top.id !== r.categoryId) byCategory.set(top.id, maxIso(byCategory.get(top.id), r.lastmod));
      if (r.listed && r.citySlug) {
        const path = landingPath(top.slug, r.citySlug);
        byLanding.set(path, maxIso(byLanding.get(path), r.lastmod));
      }
    }
    return { byCategory, byLanding };
  });
}

const SITEMAP_PROVIDERS_SQL = `
  SELECT slug, coalesce(updated_at, published_at) AS lastmod
  FROM published_providers ORDER BY slug LIMIT ? OFFSET ?`;
const LASTMODS_BY_SLUG_SQL = 'SELECT coalesce(updated_at, published_at) FROM published_providers ORDER BY slug';

/** The builder counts the published providers into snapshot_meta: counting the view scans every wide row. */
export const publishedCount = (snapshot: Snapshot): number => snapshot.meta.counts.published;

/** Every published provider's sitemap date, in slug order (what sitemapProviderRows pages through). */
export function publishedLastmodsBySlug(snapshot: Snapshot): (string | null)[] {
  return snapshot.prepare<[], string | null>(LASTMODS_BY_SLUG_SQL).pluck().all();
}

/** One sitemap file's worth of published providers, in slug order. */
export function sitemapProviderRows(snapshot: Snapshot, offset: number, limit: number): { slug: string; lastmod: string }[] {
  return snapshot.prepare<[number, number], { slug: string; lastmod: string }>(SITEMAP_PROVIDERS_SQL).all(limit, offset);
}
