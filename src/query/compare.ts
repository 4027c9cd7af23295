/**
 * Two-provider comparison: both summaries with their public proof counts, and the
 * context that says whether they compete (a shared top-level service category;
 * children count under their active parent) and what they share.
 */
import type { CategoryRef, ProviderSummary } from '../schemas/provider.ts';
import { categoryTree, toCategoryRef, topLevelOf } from './categories.ts';
import { toBusinessSummary } from './projections.ts';
import type { ProviderRow } from './provider-row.ts';
import type { Snapshot } from './snapshot.ts';

const PUBLIC_PROOFS_SQL = 'SELECT count(*) AS n FROM public_proofs WHERE provider_rowid = ?';
const CATEGORY_IDS_SQL = 'SELECT category_id AS id FROM provider_categories WHERE provider_rowid = ? ORDER BY position';

export interface ComparisonItem extends ProviderSummary {
  proofSummary: { totalPublicProofs: number };
}

export function comparisonItem(snapshot: Snapshot, row: ProviderRow): ComparisonItem {
  const n = snapshot.prepare<[number], { n: number }>(PUBLIC_PROOFS_SQL).get(row.rowid)?.n ?? 0;
  return { ...toBusinessSummary(row), proofSummary: { totalPublicProofs: n } };
}

function topLevelCategories(snapshot: Snapshot, rowid: number): CategoryRef[] {
  const tree = categoryTree(snapshot);
  const ids = snapshot.prepare<[number], { id: string }>(CATEGORY_IDS_SQL).all(rowid);
  const seen = new Map<string, CategoryRef>();
  for (const { id } of ids) {
    const top = topLevelOf(tree, id);
    if (top && !seen.has(top.id)) seen.set(top.id, toCategoryRef(top));
  }
  return [...seen.values()];
}

export function comparisonContext(snapshot: Snapshot, a: ProviderRow, b: ProviderRow) {
  const bTop = new Set(topLevelCategories(snapshot, b.rowid).map((c) => c.id));
  const sharedCategories = topLevelCategories(snapshot, a.rowid).filter((c) => bTop.has(c.id));
  const bIndustries = new Set((JSON.parse(b.industry_focus) as string[]).map((s) => s.toLowerCase()));
  const sharedIndustries = (JSON.parse(a.industry_focus) as string[]).filter((s) => bIndustries.has(s.toLowerCase()));
  return {
    comparable: sharedCategories.length > 0,
    rule: 'same_service_industry' as const,
    sharedCategories,
    sharedIndustries,
  };
}
