/**
 * Site-only reads for category pages, landing pages and the taxonomy sitemap:
 * every usable category (active; a child only under an active parent), the top
 * providers of a category, and `lastmod` dates taken from the data (the latest
 * updatedAt/publishedAt of the providers a page lists), never from the clock.
 */
import type { ProviderSummary } from '../schemas/provider.ts';
import { categoryFilterIds, categoryTree, topLevelOf, type CategoryNode } from './categories.ts';
import { landingPath, RANK_ORDER, TRUST_THRESHOLD } from './discovery.ts';
import { toBusinessSummary } from './projections.ts';
import { marketFigures } from './reports.ts';
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

const IN_CATEGORY = 'pc.category_id IN (SELECT value FROM json_each(:ids))';
// Two ways to the same rows in the same order, for two sizes of category: a category holding
// a good share of the published providers finds its first `limit` by walking the rank index
// (published_by_rank) and testing each row's links, after about limit / share rows; a small
// one's rows are fewer than that walk, read through its links and sorted.
const TOP_BY_WALK_SQL = `
  SELECT p.* FROM published_providers p
  WHERE EXISTS (SELECT 1 FROM provider_categories pc WHERE pc.provider_rowid = p.rowid AND ${IN_CATEGORY})
  ${RANK_ORDER} LIMIT :limit`;
const TOP_BY_LINKS_SQL = `
  SELECT p.* FROM published_providers p
  WHERE p.rowid IN (SELECT pc.provider_rowid FROM provider_categories pc WHERE ${IN_CATEGORY})
  ${RANK_ORDER} LIMIT :limit`;
/** From this share of the published providers on, the walk reads fewer rows (100 x limit at most). */
const WALK_SHARE = 0.01;

/**
 * A category's providers (children included for a parent): trust, rating, then slug. The
 * total is the category's figures' (src/query/reports.ts: the same published providers,
 * counted in the one read of the category's rows its page's charts make).
 */
export function categoryProviders(snapshot: Snapshot, node: CategoryNode, limit: number): { data: ProviderSummary[]; total: number } {
  const total = marketFigures(snapshot, node, null).figures.totalProviders;
  if (total === 0) return { data: [], total };
  const ids = JSON.stringify(categoryFilterIds(categoryTree(snapshot), node));
  const sql = total >= WALK_SHARE * publishedCount(snapshot) ? TOP_BY_WALK_SQL : TOP_BY_LINKS_SQL;
  const rows = snapshot.prepare<[{ ids: string; limit: number }], ProviderRow>(sql).all({ ids, limit });
  return { data: rows.map(toBusinessSummary), total };
}

// published_summaries: the published rows, narrow (schema.sql).
const LASTMOD_BY_CATEGORY_CITY_SQL = `
  SELECT pc.category_id AS categoryId, p.city_slug AS citySlug, p.trust_level >= ${TRUST_THRESHOLD} AS listed,
         max(coalesce(p.updated_at, p.published_at)) AS lastmod
  FROM provider_categories pc
  JOIN published_summaries p ON p.rowid = pc.provider_rowid
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

/**
 * One sitemap file's worth of published providers, in slug order. The last part read is
 * kept: a part's provider and VIC files list the same providers, rendered one after the
 * other (sitemapPartParams).
 */
export function sitemapProviderRows(snapshot: Snapshot, offset: number, limit: number): { slug: string; lastmod: string }[] {
  const held = snapshot.memo('site:sitemap-rows', () => ({ key: '', rows: [] as { slug: string; lastmod: string }[] }));
  const key = `${offset}:${limit}`;
  if (held.key !== key) {
    held.rows = snapshot.prepare<[number, number], { slug: string; lastmod: string }>(SITEMAP_PROVIDERS_SQL).all(limit, offset);
    held.key = key;
  }
  return held.rows;
}
