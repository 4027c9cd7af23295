/** GET /api/v1/search: hybrid search (bm25 over the postings tables + nearest neighbours in the vector index, fused by RRF). */
import { MIN_QUERY_CODE_POINTS, SearchParamsSchema, codePointLength, type SearchParams } from '../../schemas/api/params.ts';
import { SearchResponseSchema, type SearchResponse } from '../../schemas/api/responses.ts';
import type { Snapshot } from '../../query/snapshot.ts';
import type { SearchRequest } from '../../search/search.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { defineRoute } from './route.ts';

/**
 * Parses search parameters and checks `q` (QUERY_REQUIRED, QUERY_TOO_SHORT).
 * Shared with the AI endpoint and the MCP tool, which add their own limits.
 */
export function parseSearchParams(query: Record<string, unknown>): SearchParams & { q: string } {
  const params = SearchParamsSchema.parse(query);
  const q = params.q;
  if (q === undefined) throw new ApiError('QUERY_REQUIRED', 'The query parameter q is required.');
  if (codePointLength(q) < MIN_QUERY_CODE_POINTS) {
    throw new ApiError('QUERY_TOO_SHORT', `The query q must be at least ${MIN_QUERY_CODE_POINTS} characters long.`);
  }
  return { ...params, q };
}

/**
 * A hybrid search in the search gate, as both search routes answer it (this one
 * and /api/v1/providers with q): the hits with their ranks, the counts, the meta
 * fields both end with, and no-store for a keyword-only answer (the embedder was
 * away: a later request may get the full one).
 */
export async function gatedSearch(app: AppContext, snapshot: Snapshot, request: SearchRequest) {
  const result = await app.search(snapshot, request);
  const keywordOnly = result.meta.vectorSide === 'unavailable';
  return {
    data: result.items.map((hit) => ({ ...hit.summary, search: hit.search })),
    total: result.meta.total,
    totalPages: result.meta.totalPages,
    metaTail: { source: 'hybrid' as const, rrf: result.meta.rrf, understood: result.meta.understood, ...(keywordOnly && { vectorSide: 'unavailable' as const }) },
    noStore: keywordOnly,
  };
}

export const searchRoute = defineRoute({
  path: '/api/v1/search',
  operationId: 'searchProviders',
  summary: 'Hybrid search over published providers',
  description:
    'Keyword candidates (bm25, as SQLite FTS5 defines it, over the snapshot\'s postings tables) and vector candidates ' +
    '(nearest neighbours of the query\'s embedding), each filtered before ranking, merged by Reciprocal Rank Fusion with ' +
    'k = 60: rrfScore = keywordWeight / (60 + keywordRank) + 1 / (60 + vectorRank) + termWeight * (categoryShare + ' +
    '(namedService ? 1 : 0)) / 61, each rank term only from a side that returned the item. keywordWeight (0.7 to 1, ' +
    'meta.rrf.keywordWeight) is 1 when the keyword side\'s best match holds every query word; categoryShare is the share of ' +
    'the top 10 candidates\' plain RRF score held by the item\'s primary category; namedService is true when that category is ' +
    'a service the request names; termWeight (meta.rrf.termWeight) is 1, or less when those two terms would lift a provider ' +
    'neither side ranks in its top 3 past the one both sides rank first. A place named in q (a city, province or region, ' +
    'meta.understood.place) is a ranking tier, not a filter: among the candidates that answer the request (at least half ' +
    'the best rrfScore, and of the service q names, if any), those in the place rank first, then those near it (its ' +
    'province or region), then the rest (search.place); the place\'s words are not ranked. The city and location ' +
    'parameters filter. Ranks are 1-based; a side that did not return an item gives it rank = that side\'s candidate ' +
    'count + 1. Ties: rrfScore, then trustLevel, then slug. `q` is cut to 200 code points.',
  tag: 'Search',
  query: SearchParamsSchema,
  requiredQuery: ['q'],
  response: SearchResponseSchema,
  errors: ['QUERY_REQUIRED', 'QUERY_TOO_SHORT'],
  cache: 'snapshot',
  async handle({ query, snapshot, app }) {
    const { q, page, limit, sort, ...filters } = parseSearchParams(query);
    const found = await gatedSearch(app, snapshot, { query: q, filters, sort, page, limit });
    const body: SearchResponse = {
      data: found.data,
      meta: { q, page, limit, total: found.total, totalPages: found.totalPages, sort, ...found.metaTail },
    };
    return { body, page: { page, totalPages: found.totalPages }, noStore: found.noStore };
  },
});
