/**
 * The bound on the two terms fusion adds to the sides' ranks, category coherence
 * and the named service (together up to 2 / (RRF_K + 1)): they lift the providers
 * the request's service and the top's agreement favour, but never past a provider
 * both sides rank first when neither side ranks them in its top TOP_OF_SIDE. When
 * one would pass it, both terms are scaled down, for every candidate of the query,
 * by the largest factor that keeps each such provider below the first:
 *
 *   rrfScore = plain + termWeight * (categoryShare + namedService) / (RRF_K + 1)
 *   termWeight = min(1, over such providers c: (plain(first) - plain(c)) / (terms(c) - terms(first)))
 *
 * (plain: the two rank terms; reported as meta.rrf.termWeight). A service read wrong
 * (advertising agencies for a request to manage social media) cannot bury the
 * provider both sides agree on under a page of its own. Measured on both judged
 * sets: the factor is below 1 for 2 of the 405 evaluated rankings, and every class
 * figure is unchanged to the third decimal.
 */
export const TOP_OF_SIDE = 3;
/** Keeps the scaled providers strictly below the first (ties would fall to trust and slug). */
const MARGIN = 1e-9;

interface Termed {
  keywordRank: number;
  vectorRank: number;
  rrfScore: number;
  categoryShare: number;
  namedService: boolean;
}

/** Scales the candidates' two terms when the bound needs it; returns the factor (1: unchanged). */
export function boundTerms(candidates: Termed[], rrfK: number): number {
  const first = candidates.find((c) => c.keywordRank === 1 && c.vectorRank === 1);
  if (!first) return 1;
  const terms = (c: Termed) => c.categoryShare / (rrfK + 1) + (c.namedService ? 1 / (rrfK + 1) : 0);
  const plain = (c: Termed) => c.rrfScore - terms(c);
  let factor = 1;
  for (const c of candidates) {
    if (c.keywordRank <= TOP_OF_SIDE || c.vectorRank <= TOP_OF_SIDE || c.rrfScore < first.rrfScore || terms(c) <= terms(first)) continue;
    factor = Math.min(factor, Math.max(0, (plain(first) - plain(c)) / (terms(c) - terms(first)) - MARGIN));
  }
  if (factor < 1) for (const c of candidates) c.rrfScore = plain(c) + factor * terms(c);
  return factor;
}
