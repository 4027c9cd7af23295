/**
 * GET /api/ai/recommend: a natural-language request -> provider candidates with a
 * reason each. The request is parsed locally (src/query/nl-query.ts): a city or
 * province becomes a filter, the services named become a category filter when
 * they share one top-level category, a budget becomes the projectBudget filter
 * (displayable IDR budgets only). Filters read from the text are relaxed (budget
 * first, then category) when they leave nothing; the city never is. Ranking is
 * the same hybrid search as /api/v1/search.
 */
import * as z from 'zod';
import { providerCategories } from '../query/categories.ts';
import { parseNaturalQuery, type ParsedQuery, type Vocabulary } from '../query/nl-query.ts';
import { vocabularyOf } from '../query/nl-query-vocabulary.ts';
import { searchProviders, type SearchResult } from '../search/search.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { FilterParams } from '../schemas/api/params.ts';
import { SearchItemSchema } from '../schemas/api/responses.ts';
import { jsonResponse } from './respond.ts';
import { NO_STORE } from './http.ts';
import { gatherEvidence, reasonText } from './recommend-reasons.ts';
import { parseRecommendParams, type RecommendParams } from './recommend-params.ts';

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
    tookMs: z.number().int().describe('time spent answering, in whole milliseconds'),
  }),
});
export type RecommendResponse = z.output<typeof RecommendResponseSchema>;

const PUBLIC_PROOFS_SQL = 'SELECT count(*) AS n FROM public_proofs WHERE provider_rowid = ?';

/** One category filter for the services named: the service itself, or the top-level category they share. */
function categoryFilter(parsed: ParsedQuery, vocab: Vocabulary): string | undefined {
  if (parsed.services.length === 0) return undefined;
  if (parsed.services.length === 1) return parsed.services[0]!.slug;
  const topOf = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? slug;
  const tops = new Set(parsed.services.map((s) => topOf(s.slug)));
  return tops.size === 1 ? [...tops][0] : undefined;
}

/** The filter sets to try, strictest first. */
function filterLadder(params: RecommendParams, parsed: ParsedQuery, vocab: Vocabulary): FilterParams[] {
  const place: FilterParams = {};
  if (params.city !== null) place.city = params.city;
  else if (parsed.place?.kind === 'city') place.city = parsed.place.city;
  else if (parsed.place?.kind === 'province') place.location = parsed.place.province;
  const categorySlug = categoryFilter(parsed, vocab);
  const budget = parsed.budget?.maxIdr;
  const ladder: FilterParams[] = [{ ...place, ...(categorySlug && { categorySlug }), ...(budget !== undefined && { projectBudget: budget }) }];
  if (budget !== undefined) ladder.push({ ...place, ...(categorySlug && { categorySlug }) });
  if (categorySlug) ladder.push({ ...place });
  return ladder;
}

export async function recommend(snapshot: Snapshot, params: RecommendParams, startedAt = performance.now()): Promise<RecommendResponse> {
  const vocab = vocabularyOf(snapshot);
  const parsed = parseNaturalQuery(params.q, vocab);
  const searchText = [...parsed.searchText].length >= 2 ? parsed.searchText : params.q;

  let result: SearchResult | undefined;
  for (const filters of filterLadder(params, parsed, vocab)) {
    result = await searchProviders(snapshot, { q: searchText, filters, sort: 'relevance', page: 1, limit: params.limit });
    if (result.meta.total > 0) break;
  }
  const { items, meta } = result!;

  const parentOf = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? null;
  const data = items.map((hit) => {
    const publicProofs = snapshot.prepare<[number], { n: number }>(PUBLIC_PROOFS_SQL).get(hit.row.rowid)?.n ?? 0;
    const evidence = gatherEvidence(
      {
        row: hit.row,
        categories: providerCategories(snapshot, hit.row.rowid),
        publicProofs,
        vectorRank: hit.search.vectorRank <= meta.rrf.vectorCandidates ? hit.search.vectorRank : null,
      },
      parsed,
      parentOf,
    );
    return { ...hit.summary, search: hit.search, reason: reasonText(evidence, parsed.lang) };
  });

  return {
    data,
    meta: {
      q: params.q,
      city: params.city,
      total: meta.total,
      limit: params.limit,
      source: 'hybrid',
      rrf: {
        k: meta.rrf.k,
        keywordCandidates: meta.rrf.keywordCandidates,
        vectorCandidates: meta.rrf.vectorCandidates,
        mergedCandidates: meta.rrf.mergedCandidates,
      },
      tookMs: Math.round(performance.now() - startedAt),
    },
  };
}

/** The handler behind the key guard: parameters are checked only after the key and the rate limit. */
export async function recommendHandler(request: Request, snapshot: Snapshot): Promise<Response> {
  const startedAt = performance.now();
  const params = parseRecommendParams(new URL(request.url).searchParams);
  const body = await recommend(snapshot, params, startedAt);
  return jsonResponse(body, 200, { 'Cache-Control': NO_STORE, 'X-Snapshot-Id': snapshot.id });
}
