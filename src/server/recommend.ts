/**
 * GET /api/ai/recommend: a natural-language request -> provider candidates with a
 * reason each. The request is read once, locally (src/query/nl-query.ts:
 * parseRequest); every search of the answer and every reason takes that reading,
 * and what was read is honoured as filters: the place (a city, a province, or a
 * region's cities), a stated trust level or rating floor, and a budget ceiling
 * (displayable IDR budgets only) are never relaxed: an answer breaking one is
 * worse than a short answer. The service named becomes a category filter; when
 * that leaves fewer providers than asked, the rest of the list is filled, under
 * the same hard filters, from the category's family ("android" -> other mobile
 * app makers), then from the best matches of any category: always after every
 * in-category provider, and each reason names the provider's categories.
 * `meta.understood` says what was read. Ranking is the same hybrid search as
 * /api/v1/search.
 */
import * as z from 'zod';
import { providerCategories } from '../query/categories.ts';
import { publishedRowBySlug } from '../query/providers.ts';
import type { SearchFilters } from '../query/filters.ts';
import type { ParsedRequest, Vocabulary } from '../query/nl-query.ts';
import { snapshotQueryParser } from '../query/nl-query-vocabulary.ts';
import { readRequest, searchProviders, type SearchHit, type SearchResult } from '../search/search.ts';
import type { Searcher } from './search-threads.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { SearchItemSchema, VectorSideSchema } from '../schemas/api/responses.ts';
import { jsonResponse } from './respond.ts';
import { NO_STORE } from './http.ts';
import { gatherEvidence, reasonText } from './recommend-reasons.ts';
import { parseRecommendParams, type RecommendParams } from './recommend-params.ts';
import { understoodOf, UnderstoodSchema } from './recommend-understood.ts';

export const RecommendItemSchema = SearchItemSchema.extend({
  reason: z.string().describe('why this provider fits, from evidence: matched words and where, city, trust, rating, proofs'),
});

export const RecommendResponseSchema = z.object({
  data: z.array(RecommendItemSchema),
  meta: z.object({
    q: z.string().describe('the query as used (trimmed)'),
    city: z.string().nullable().describe('the city parameter, or null when not sent'),
    total: z.number().int().describe('number of fused candidates'),
    limit: z.number().int(),
    source: z.literal('hybrid'),
    rrf: z.object({
      k: z.number().int().describe('RRF constant (60)'),
      keywordCandidates: z.number().int(),
      vectorCandidates: z.number().int(),
      mergedCandidates: z.number().int(),
    }),
    understood: UnderstoodSchema,
    vectorSide: VectorSideSchema,
    tookMs: z.number().int().describe('time spent answering, in whole milliseconds'),
  }),
});
export type RecommendResponse = z.output<typeof RecommendResponseSchema>;

const PUBLIC_PROOFS_SQL = 'SELECT count(*) AS n FROM public_proofs WHERE provider_rowid = ?';

/** One category filter for the services named: the service itself, or the top-level category they share. */
export function categoryFilter(parsed: ParsedRequest, vocab: Vocabulary): string | undefined {
  if (parsed.services.length === 0) return undefined;
  if (parsed.services.length === 1) return parsed.services[0]!.slug;
  const topOf = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? slug;
  const tops = new Set(parsed.services.map((s) => topOf(s.slug)));
  return tops.size === 1 ? [...tops][0] : undefined;
}

/** The filters the request states and that every answer keeps: place, trust, rating, budget. */
function hardFilters(params: RecommendParams, parsed: ParsedRequest): SearchFilters {
  const f: SearchFilters = {};
  if (params.city !== null) f.city = params.city;
  else if (parsed.place?.kind === 'city') f.city = parsed.place.city;
  else if (parsed.place?.kind === 'province') f.location = parsed.place.province;
  else if (parsed.place?.kind === 'region') f.anyOfCities = parsed.place.cities;
  if (parsed.minTrustLevel !== null) f.minTrustLevel = parsed.minTrustLevel;
  if (parsed.minRating !== null) f.minRating = parsed.minRating;
  if (parsed.budget) f.projectBudget = parsed.budget.maxIdr;
  return f;
}

/** `search` is searchProviders, or the app context's (on the search threads when SEARCH_THREADS > 0). */
export async function recommend(snapshot: Snapshot, params: RecommendParams, startedAt = performance.now(), search: Searcher = searchProviders): Promise<RecommendResponse> {
  const { vocab } = snapshotQueryParser(snapshot);
  // The place, budget and floors are filters here: search ranks the rest of the request.
  const parsed = readRequest(snapshot, params.q, { leaveOut: 'filters' });
  const hard = hardFilters(params, parsed);
  const categorySlug = categoryFilter(parsed, vocab);
  const searchWith = (filters: SearchFilters) => search(snapshot, { query: parsed, filters, sort: 'relevance', page: 1, limit: params.limit });

  const result: SearchResult = await searchWith(categorySlug ? { ...hard, categorySlug } : hard);
  // A short list is filled: the category's family first, then the rest, never past the hard filters.
  let hits: SearchHit[] = result.items;
  let total = result.meta.total;
  const family = categorySlug ? vocab.categories.find((c) => c.slug === categorySlug)?.parentSlug : null;
  for (const wider of [...(family ? [{ ...hard, categorySlug: family }] : []), ...(categorySlug ? [hard] : [])]) {
    if (hits.length >= params.limit) break;
    const seen = new Set(hits.map((h) => h.row.rowid));
    const more = await searchWith(wider);
    hits = [...hits, ...more.items.filter((h) => !seen.has(h.row.rowid))].slice(0, params.limit);
    total = more.meta.total;
  }
  const { meta } = result;

  const parentOf = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? null;
  const data = hits.flatMap((hit) => {
    // the whole row: a reason quotes the description and the tags, which a search hit does not carry
    const row = publishedRowBySlug(snapshot, hit.row.slug);
    if (!row) return [];
    const publicProofs = snapshot.prepare<[number], { n: number }>(PUBLIC_PROOFS_SQL).get(row.rowid)?.n ?? 0;
    const evidence = gatherEvidence(
      {
        row,
        categories: providerCategories(snapshot, row.rowid),
        publicProofs,
        vectorRank: hit.search.vectorRank <= meta.rrf.vectorCandidates ? hit.search.vectorRank : null,
      },
      parsed,
      parentOf,
    );
    return [{ ...hit.summary, search: hit.search, reason: reasonText(evidence, parsed.lang) }];
  });

  return {
    data,
    meta: {
      q: params.q,
      city: params.city,
      total,
      limit: params.limit,
      source: 'hybrid',
      rrf: {
        k: meta.rrf.k,
        keywordCandidates: meta.rrf.keywordCandidates,
        vectorCandidates: meta.rrf.vectorCandidates,
        mergedCandidates: meta.rrf.mergedCandidates,
      },
      understood: understoodOf(parsed, hard, categorySlug ?? null),
      ...(meta.vectorSide === 'unavailable' && { vectorSide: 'unavailable' as const }),
      tookMs: Math.round(performance.now() - startedAt),
    },
  };
}

export async function recommendHandler(request: Request, snapshot: Snapshot, search: Searcher): Promise<Response> {
  const startedAt = performance.now();
  const params = parseRecommendParams(new URL(request.url).searchParams);
  const body = await recommend(snapshot, params, startedAt, search);
  return jsonResponse(body, 200, { 'Cache-Control': NO_STORE, 'X-Snapshot-Id': snapshot.id });
}
