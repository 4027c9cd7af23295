/**
 * The rows a provider page is built from, read for 512 pages at a time. Astro
 * renders the pages in getStaticPaths order (slug order), so when a page's slug
 * is not in the chunk at hand, the next 512 slugs of the build's pages (every
 * published one, or a small publish's few) are read with three queries (rows,
 * category links, public proofs) instead of three lookups per page.
 * Same SQL conditions and orders as the per-page lookups (publishedRowBySlug,
 * providerCategories, publicProofs), so the pages are byte-identical; a slug out
 * of order just starts a new chunk.
 */
import type { ProviderRow } from '../query/provider-row.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { PublicProof } from '../web/vic.ts';

const CHUNK = 512;

const ROWS_SQL = 'SELECT p.* FROM published_providers p WHERE p.slug IN (SELECT value FROM json_each(?))';
const LINKS_SQL = `
  SELECT provider_rowid AS rowid, category_id AS categoryId FROM provider_categories
  WHERE provider_rowid IN (SELECT value FROM json_each(?)) ORDER BY provider_rowid, position`;
const PROOFS_SQL = `
  SELECT provider_rowid AS rowid, id, title, kind, url, created_at AS createdAt FROM public_proofs
  WHERE provider_rowid IN (SELECT value FROM json_each(?)) ORDER BY provider_rowid, created_at DESC, id`;

export interface PageRows {
  row: ProviderRow;
  /** linked category ids, primary first (provider_categories.position) */
  categoryIds: string[];
  proofs: PublicProof[];
}

interface Chunk {
  bySlug: Map<string, PageRows>;
}

interface Reader {
  position: Map<string, number>;
  slugs: string[];
  chunk: Chunk;
}

function readChunk(snapshot: Snapshot, slugs: string[]): Chunk {
  const rows = snapshot.prepare<[string], ProviderRow>(ROWS_SQL).all(JSON.stringify(slugs));
  const byRowid = new Map<number, PageRows>();
  const bySlug = new Map<string, PageRows>();
  for (const row of rows) {
    const page: PageRows = { row, categoryIds: [], proofs: [] };
    byRowid.set(row.rowid, page);
    bySlug.set(row.slug, page);
  }
  const rowids = JSON.stringify(rows.map((r) => r.rowid));
  for (const l of snapshot.prepare<[string], { rowid: number; categoryId: string }>(LINKS_SQL).all(rowids)) {
    byRowid.get(l.rowid)!.categoryIds.push(l.categoryId);
  }
  for (const { rowid, id, title, kind, url, createdAt } of snapshot.prepare<[string], PublicProof & { rowid: number }>(PROOFS_SQL).all(rowids)) {
    byRowid.get(rowid)!.proofs.push({ id, title, kind, url, createdAt });
  }
  return { bySlug };
}

/**
 * The page rows of a published slug, or undefined (unknown and unpublished look the
 * same). `pageSlugs`: the slugs this build renders, in render order (read once).
 */
export function providerPageRows(snapshot: Snapshot, slug: string, pageSlugs: () => string[]): PageRows | undefined {
  const reader = snapshot.memo<Reader>('site:provider-page-rows', () => {
    const slugs = pageSlugs();
    return { slugs, position: new Map(slugs.map((s, i) => [s, i])), chunk: { bySlug: new Map() } };
  });
  const hit = reader.chunk.bySlug.get(slug);
  if (hit) return hit;
  const at = reader.position.get(slug);
  reader.chunk = readChunk(snapshot, at === undefined ? [slug] : reader.slugs.slice(at, at + CHUNK));
  return reader.chunk.bySlug.get(slug);
}
