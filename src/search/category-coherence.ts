/**
 * Category coherence, the third term of rrfScore (the cluster hypothesis: the
 * providers that answer a request mostly share a main service). The best
 * COHERENCE_TOP candidates by plain RRF that both sides returned vote for their
 * primary categories, each with its RRF score; a candidate's categoryShare is the share of that vote
 * its own primary category got, and it adds
 *
 *   categoryShare / (RRF_K + 1)      (at most what rank 1 in a side adds)
 *
 * so a relevant provider that both sides placed at ranks 10-30 (a request in other
 * words than its profile's) rises towards the ones the top agrees on, and a lone
 * off-topic match in the top 10 sinks. No language data and no word lists: only
 * the snapshot's own categories. Part of the fusion of two sides: an answer from
 * one side alone (the embedder unavailable, no keyword match) keeps that side's
 * order, categoryShare 0.
 *
 * Measured (nDCG@10, hybrid / recommend), against no coherence term: the
 * independent judged set 0.789 / 0.784 -> 0.807 / 0.804 (cross-language
 * 0.703 -> 0.760, paraphrase 0.457 -> 0.463, exact 0.970 -> 0.977), the project's
 * set 0.900 / 0.907 -> 0.913 / 0.921. A weight of 0.3 or 0.6 instead of 1 gained
 * less; 1.5-3 measured alike. The top 5 or 20 instead of 10: alike or less.
 */
import type { Snapshot } from '../query/snapshot.ts';
import { maxRowid, readSearchColumn } from '../query/published-columns.ts';
import { firstInOrder } from './first-in-order.ts';

/** How many of the best candidates vote. */
export const COHERENCE_TOP = 10;

/** Primary category of every provider by rowid, as a small integer (0: none); kept per snapshot. */
export function primaryCategories(snapshot: Snapshot): Int32Array {
  return primaryCategoryIndex(snapshot).byRowid;
}

/** The same, with the small integer of each category id (its rowid in `categories`). */
export function primaryCategoryIndex(snapshot: Snapshot): { byRowid: Int32Array; numbers: ReadonlyMap<string, number> } {
  return snapshot.memo('primary-categories', () => {
    // written by the builder (search_columns: the categories.rowid of provider_categories' position 0)
    const byRowid = readSearchColumn(snapshot, 'primary_category', new Int32Array(maxRowid(snapshot) + 1));
    const numbers = new Map(snapshot.prepare<[], [string, number]>('SELECT id, rowid FROM categories').raw().all());
    return { byRowid, numbers };
  });
}

export interface Coherent {
  rowid: number;
  keywordRank: number;
  vectorRank: number;
  rrfScore: number;
  categoryShare: number;
}

/**
 * Sets each candidate's categoryShare and adds its term to rrfScore; `candidates` are
 * in any order, `inPlainOrder` the plain RRF order (best first) the voters are taken
 * in, and `sides` the two candidate lists' lengths. Only candidates both sides
 * returned vote: a word only one profile holds (a name) is not outvoted by the vector
 * side's neighbours of a word it does not know.
 */
export function addCategoryCoherence<C extends Coherent>(
  candidates: C[],
  inPlainOrder: (a: C, b: C) => number,
  categories: Int32Array,
  rrfK: number,
  sides: { keyword: number; vector: number },
): void {
  const bothSides = candidates.filter((c) => c.keywordRank <= sides.keyword && c.vectorRank <= sides.vector);
  const votes = new Map<number, number>();
  let total = 0;
  // the voters in order: their scores are summed in it
  for (const c of firstInOrder(bothSides, COHERENCE_TOP, inPlainOrder)) {
    const category = categories[c.rowid]!;
    if (category === 0) continue;
    votes.set(category, (votes.get(category) ?? 0) + c.rrfScore);
    total += c.rrfScore;
  }
  for (const c of candidates) {
    const category = categories[c.rowid]!;
    c.categoryShare = total > 0 && category !== 0 ? (votes.get(category) ?? 0) / total : 0;
    c.rrfScore += c.categoryShare / (rrfK + 1);
  }
}
