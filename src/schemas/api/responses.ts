/**
 * Response bodies of the public REST API. They type the handlers and generate the
 * OpenAPI document (src/server/openapi.ts); tests validate every body against that
 * document, so a handler that drifts from these schemas fails a test.
 */
import * as z from 'zod';
import { CategoryRefSchema, ProviderDetailSchema, ProviderSummarySchema } from '../provider.ts';

export const ErrorResponseSchema = z.object({
  error: z.object({
    code: z.string().describe('spec error code, e.g. QUERY_REQUIRED'),
    message: z.string().describe('human-readable text'),
    details: z.null().optional().describe('always null; omitted on authentication and rate-limit errors'),
  }),
});

export const CategorySchema = CategoryRefSchema.extend({
  children: z.array(CategoryRefSchema).describe('active child categories'),
});

export const CategoriesResponseSchema = z.object({
  data: z.array(CategorySchema).describe('active top-level categories, each with its active children'),
  meta: z.object({
    total: z.number().int().describe('number of categories listed, parents and children'),
    rootCount: z.number().int().describe('number of top-level categories'),
  }),
});
export type CategoriesResponse = z.output<typeof CategoriesResponseSchema>;

export const SearchInfoSchema = z.object({
  source: z.literal('hybrid'),
  rrfScore: z
    .number()
    .describe(
      'keywordWeight / (60 + keywordRank) + 1 / (60 + vectorRank) + termWeight * (categoryShare + (namedService ? 1 : 0)) / 61, each rank term only from a side that returned the item (meta.rrf.keywordWeight, meta.rrf.termWeight)',
    ),
  keywordRank: z.number().int().min(1).describe('1-based rank in the keyword candidates; their count + 1 when absent'),
  vectorRank: z.number().int().min(1).describe('1-based rank in the vector candidates; their count + 1 when absent'),
  categoryShare: z
    .number()
    .min(0)
    .max(1)
    .describe("share of the top 10 candidates' RRF score held by providers of this provider's primary category"),
  namedService: z
    .boolean()
    .describe("true when this provider's primary category is a service the request names (as AI recommend reads it), or a child of one"),
  place: z
    .enum(['in', 'near', 'elsewhere'])
    .nullable()
    .describe(
      'where the provider is against the place the request names (meta.understood.place): in it, near it (its province or region), or elsewhere; null when the request names no place',
    ),
});
export type SearchInfo = z.output<typeof SearchInfoSchema>;

export const SearchItemSchema = ProviderSummarySchema.extend({ search: SearchInfoSchema });
export type SearchItem = z.output<typeof SearchItemSchema>;

/** List items: a summary, plus `search` when `q` switched the list to hybrid ranking. */
export const ListItemSchema = ProviderSummarySchema.extend({ search: SearchInfoSchema.optional() });

/** Present only when the external embedder failed or timed out: the answer is the keyword side's alone (and not cached). */
export const VectorSideSchema = z
  .literal('unavailable')
  .optional()
  .describe('"unavailable" when the vector side could not run (external embedder down): keyword-only answer, not cached');

export const UnderstoodServiceSchema = z.object({
  slug: z.string().describe('category slug'),
  name: z.string().describe('category name'),
  matched: z.string().describe('the words of the request that named it (normalized)'),
});

export const UnderstoodPlaceSchema = z.object({
  kind: z.enum(['city', 'province', 'region']),
  name: z.string().describe('the city, province or region as the snapshot spells it'),
  matched: z.string().describe('the words of the request that named it (normalized)'),
  cities: z.array(z.string()).describe('the cities a region stands for (empty for a city or province)'),
});

export const SearchUnderstoodSchema = z
  .object({
    place: UnderstoodPlaceSchema.nullable().describe(
      'the place q names: among the candidates within half of the best rrfScore, its providers rank first, then those near it, then the rest (a ranking tier, not a filter: city and location filter); null when q names none',
    ),
    services: z.array(UnderstoodServiceSchema).describe('the services q names, most specific first: each provider of one (or of a child of one) adds namedService / 61'),
    searchText: z.string().describe('the words ranked: q without the place it names'),
  })
  .describe('what search read from q and how it used it');
export type SearchUnderstood = z.output<typeof SearchUnderstoodSchema>;

export const RrfMetaSchema = z.object({
  k: z.number().int().describe('RRF constant (60)'),
  keywordWeight: z.number().describe('weight of the keyword side\'s terms in rrfScore (the vector side\'s is 1)'),
  termWeight: z
    .number()
    .describe(
      'weight of the categoryShare and namedService terms in rrfScore: 1, or less when they would lift a provider neither side ranks in its top 3 past the one both sides rank first',
    ),
  keywordCandidates: z.number().int().describe('candidates returned by the keyword side (bm25 over the postings tables)'),
  vectorCandidates: z.number().int().describe('candidates returned by the vector side (nearest neighbours)'),
  mergedCandidates: z.number().int().describe('distinct candidates after fusion'),
  window: z.number().int().describe('most candidates each side may return'),
});

const pagination = {
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
};

export const ProvidersListResponseSchema = z.object({
  data: z.array(ListItemSchema),
  meta: z.object({
    ...pagination,
    sort: z.string().describe('rating, trust or reviews; relevance when q ranks the list'),
    q: z.string().optional().describe('the query used, when hybrid ranking applied'),
    source: z.literal('hybrid').optional(),
    rrf: RrfMetaSchema.optional(),
    understood: SearchUnderstoodSchema.optional(),
    vectorSide: VectorSideSchema,
  }),
});
export type ProvidersListResponse = z.output<typeof ProvidersListResponseSchema>;

export const ProviderDetailResponseSchema = z.object({ data: ProviderDetailSchema });

export const SearchResponseSchema = z.object({
  data: z.array(SearchItemSchema),
  meta: z.object({
    q: z.string().describe('the query as used: trimmed, at most 200 code points'),
    ...pagination,
    total: z.number().int().describe('number of fused candidates'),
    sort: z.string(),
    source: z.literal('hybrid'),
    rrf: RrfMetaSchema,
    understood: SearchUnderstoodSchema,
    vectorSide: VectorSideSchema,
  }),
});
export type SearchResponse = z.output<typeof SearchResponseSchema>;

export const ProgrammaticParamSchema = z.object({
  categorySlug: z.string().describe("the parent category's slug when the category is a child"),
  city: z.string().describe('the name shown for the city: its most common well-cased spelling'),
  citySlug: z.string(),
  path: z.string().describe('/{categorySlug}-terbaik-{citySlug}'),
  providerCount: z.number().int().describe('published providers with trustLevel >= 1 in this combination'),
});

export const ProgrammaticParamsResponseSchema = z.object({
  data: z.array(ProgrammaticParamSchema),
  meta: z.object({ total: z.number().int(), limit: z.number().int(), trustThreshold: z.literal(1) }),
});

export const ProgrammaticResponseSchema = z.object({
  data: z.array(ProviderSummarySchema),
  meta: z.object({
    category: z.object({ slug: z.string(), name: z.string() }),
    citySlug: z.string(),
    city: z.string().nullable().describe('the city sent, or null when citySlug was matched'),
    ...pagination,
    trustThreshold: z.literal(1),
  }),
});

export const ComparisonItemSchema = ProviderSummarySchema.extend({
  proofSummary: z.object({ totalPublicProofs: z.number().int().describe('approved and public proofs') }),
});

export const CompareResponseSchema = z.object({
  data: z.array(ComparisonItemSchema).length(2).describe('slugA first, then slugB'),
  meta: z.object({
    slugs: z.array(z.string()).length(2),
    comparedAt: z.string().describe('ISO 8601 time this response was created'),
    comparisonContext: z.object({
      comparable: z.boolean().describe('true when both share a top-level service category'),
      rule: z.literal('same_service_industry'),
      sharedCategories: z.array(CategoryRefSchema).describe('shared top-level categories'),
      sharedIndustries: z.array(z.string()).describe('shared industryFocus values'),
    }),
  }),
});

const MoneyFigureSchema = z.object({
  providersWithDisplayableValue: z.number().int().describe('the providers the figures count; the others (totalProviders minus these) show no value'),
  minIdr: z.number().nullable(),
  medianIdr: z.number().nullable(),
  maxIdr: z.number().nullable(),
});

export const ReportResponseSchema = z.object({
  data: z.object({
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    year: z.number().int(),
    country: z.string(),
    category: CategoryRefSchema,
    totalProviders: z.number().int().describe('published providers in the category and its children, in the country'),
    byCity: z
      .array(z.object({ city: z.string().describe('the name shown for the city'), citySlug: z.string(), count: z.number().int() }))
      .describe('providers with a city, most first; every spelling of a citySlug counted under one name'),
    providersWithReviews: z.number().int().describe('rated providers (totalReviews > 0): the ones ratingDistribution and averageRating count'),
    providersWithoutReviews: z.number().int().describe('providers without reviews: no rating, in no rating bucket and not in the average'),
    ratingDistribution: z
      .array(z.object({ range: z.string(), count: z.number().int() }))
      .describe('rated providers by overall rating; the counts add up to providersWithReviews'),
    trustDistribution: z.array(z.object({ trustLevel: z.number().int(), count: z.number().int() })),
    averageRating: z.string().nullable().describe('mean overall rating of the rated providers, 2 fraction digits; null when none is rated'),
    commercial: z.object({
      hourlyRate: MoneyFigureSchema.describe('displayable IDR hourly rates only'),
      minProjectBudget: MoneyFigureSchema.describe('displayable IDR minimum budgets only'),
    }),
  }),
  meta: z.object({ generatedFrom: z.string().describe('snapshot id'), builtAt: z.string() }),
});
export type ReportResponse = z.output<typeof ReportResponseSchema>;
