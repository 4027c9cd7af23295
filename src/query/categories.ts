/**
 * The category tree, read once per snapshot. A category is usable only while
 * active; a child counts under its parent only while that parent is active.
 */
import type { CategoryRef } from '../schemas/provider.ts';
import type { Snapshot } from './snapshot.ts';

export interface CategoryNode {
  id: string;
  slug: string;
  name: string;
  parentId: string | null;
  active: boolean;
}

export interface CategoryTree {
  byId: Map<string, CategoryNode>;
  bySlug: Map<string, CategoryNode>;
  /** Active top-level categories in dataset order, each with its active children. */
  roots: { node: CategoryNode; children: CategoryNode[] }[];
}

const TREE_SQL = `
  SELECT id, slug, name, parent_id AS parentId, active
  FROM categories
  ORDER BY position, slug`;

export function categoryTree(snapshot: Snapshot): CategoryTree {
  return snapshot.memo('categories:tree', () => {
    const rows = snapshot.prepare<[], Omit<CategoryNode, 'active'> & { active: number }>(TREE_SQL).all();
    const nodes = rows.map((r) => ({ ...r, active: r.active === 1 }));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const bySlug = new Map(nodes.map((n) => [n.slug, n]));
    const roots = nodes
      .filter((n) => n.parentId === null && n.active)
      .map((node) => ({ node, children: nodes.filter((c) => c.parentId === node.id && c.active) }));
    return { byId, bySlug, roots };
  });
}

export const toCategoryRef = (n: CategoryNode): CategoryRef => ({ id: n.id, slug: n.slug, name: n.name });

/** A usable category: active, and (for a child) under an active parent. */
export function usableCategory(tree: CategoryTree, slug: string): CategoryNode | undefined {
  const node = tree.bySlug.get(slug.toLowerCase());
  if (!node || !node.active) return undefined;
  if (node.parentId === null) return node;
  const parent = tree.byId.get(node.parentId);
  return parent?.active ? node : undefined;
}

/** The ids a category filter matches: a top-level category and its active children, or a child alone. */
export function categoryFilterIds(tree: CategoryTree, node: CategoryNode): string[] {
  if (node.parentId !== null) return [node.id];
  const root = tree.roots.find((r) => r.node.id === node.id);
  return [node.id, ...(root?.children.map((c) => c.id) ?? [])];
}

/**
 * The active top-level category a linked category counts under, or undefined:
 * an active root counts as itself, an active child under its active parent.
 */
export function topLevelOf(tree: CategoryTree, categoryId: string): CategoryNode | undefined {
  const node = tree.byId.get(categoryId);
  if (!node || !node.active) return undefined;
  if (node.parentId === null) return node;
  const parent = tree.byId.get(node.parentId);
  return parent?.active && parent.parentId === null ? parent : undefined;
}

/** GET /api/v1/categories data: active parents with their active children. */
export function listCategories(snapshot: Snapshot) {
  const tree = categoryTree(snapshot);
  const data = tree.roots.map(({ node, children }) => ({ ...toCategoryRef(node), children: children.map(toCategoryRef) }));
  const total = data.reduce((n, c) => n + 1 + c.children.length, 0);
  return { data, meta: { total, rootCount: data.length } };
}

const PROVIDER_CATEGORIES_SQL = `
  SELECT pc.category_id AS id
  FROM provider_categories pc
  WHERE pc.provider_rowid = ?
  ORDER BY pc.position`;

/** A provider's usable categories, primary first. */
export function providerCategories(snapshot: Snapshot, rowid: number): CategoryRef[] {
  const tree = categoryTree(snapshot);
  const ids = snapshot.prepare<[number], { id: string }>(PROVIDER_CATEGORIES_SQL).all(rowid);
  return ids
    .map((r) => tree.byId.get(r.id))
    .filter((n): n is CategoryNode => n !== undefined && usableCategory(tree, n.slug) !== undefined)
    .map(toCategoryRef);
}
