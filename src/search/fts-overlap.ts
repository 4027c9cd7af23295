/**
 * How far an analyst's FTS5 query (docs/schema.md) is from the API's ranking:
 * for each request, the share of the API's top 10 that `fts_providers MATCH` with
 * the request's words, ordered by bm25, also puts in its top 10. MATCH reads the
 * words as typed (all of them must occur: an implicit AND); the API adds typo
 * tolerance, synonyms, the language bridge, dropped filler words and the vector
 * side, fused by RRF. Printed by `npm run eval:search`; docs/schema.md reports it.
 */
import { normalizeTokens } from '../text/tokens.ts';
import { searchProviders } from './search.ts';
import type { Snapshot } from '../query/snapshot.ts';

const K = 10;
const FTS_SQL = `
  SELECT p.slug FROM fts_providers JOIN providers p ON p.rowid = fts_providers.rowid
  WHERE fts_providers MATCH ? ORDER BY bm25(fts_providers) LIMIT ${K}`;

/** The request's words as an analyst writes them in MATCH: each quoted, all required ("and") or any ("or"). */
export const analystMatch = (q: string, join: 'and' | 'or' = 'and'): string =>
  normalizeTokens(q).map((t) => `"${t}"`).join(join === 'and' ? ' ' : ' OR ');

export async function ftsTopOverlap(
  snapshot: Snapshot,
  requests: readonly string[],
  join: 'and' | 'or' = 'and',
): Promise<{ mean: number; perRequest: number[] }> {
  const fts = snapshot.prepare<[string], string>(FTS_SQL).pluck();
  const perRequest: number[] = [];
  for (const q of requests) {
    const api = (await searchProviders(snapshot, { query: q, filters: {}, sort: 'relevance', page: 1, limit: K })).items.map((h) => h.summary.slug);
    if (api.length === 0) continue;
    const analyst = new Set(fts.all(analystMatch(q, join)));
    perRequest.push(api.filter((s) => analyst.has(s)).length / api.length);
  }
  const mean = perRequest.reduce((a, b) => a + b, 0) / Math.max(1, perRequest.length);
  return { mean: Math.round(mean * 1000) / 1000, perRequest };
}
