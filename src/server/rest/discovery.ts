/** Programmatic discovery (category x city) and the two-provider comparison. */
import { CompareQuerySchema, ProgrammaticParamsParamsSchema, ProgrammaticQuerySchema } from '../../schemas/api/params.ts';
import {
  CompareResponseSchema,
  ProgrammaticParamsResponseSchema,
  ProgrammaticResponseSchema,
} from '../../schemas/api/responses.ts';
import { categoryTree, usableCategory } from '../../query/categories.ts';
import { citySlug } from '../../text/city-slug.ts';
import { comparisonContext, comparisonItem } from '../../query/compare.ts';
import { programmaticParams, programmaticProviders, TRUST_THRESHOLD } from '../../query/discovery.ts';
import { publishedRowBySlug } from '../../query/providers.ts';
import { ApiError } from '../errors.ts';
import { clip } from './catalog.ts';
import { defineRoute } from './route.ts';

export const programmaticParamsRoute = defineRoute({
  path: '/api/v1/discovery/programmatic-params',
  operationId: 'listProgrammaticParams',
  summary: 'Category x city combinations for landing pages',
  description:
    'Published providers with trustLevel >= 1 and a city; child categories count under their active parent. ' +
    'Ordered by provider count (descending), then path.',
  tag: 'Discovery',
  query: ProgrammaticParamsParamsSchema,
  response: ProgrammaticParamsResponseSchema,
  errors: [],
  cache: 'snapshot',
  handle({ query, snapshot }) {
    const { limit } = ProgrammaticParamsParamsSchema.parse(query);
    const all = programmaticParams(snapshot);
    return { body: { data: all.slice(0, limit), meta: { total: all.length, limit, trustThreshold: TRUST_THRESHOLD } } };
  },
});

export const programmaticRoute = defineRoute({
  path: '/api/v1/discovery/programmatic',
  operationId: 'listProgrammaticProviders',
  summary: 'Providers of one category x city combination',
  description:
    'Published providers with trustLevel >= 1; a top-level category includes its active children, a child answers ' +
    'for itself. `city`, when sent, is matched directly; otherwise `citySlug`. Order: trust, rating, slug.',
  tag: 'Discovery',
  query: ProgrammaticQuerySchema,
  requiredQuery: ['categorySlug', 'citySlug'],
  response: ProgrammaticResponseSchema,
  errors: ['PARAM_REQUIRED', 'CATEGORY_NOT_FOUND'],
  cache: 'snapshot',
  handle({ query, snapshot }) {
    const params = ProgrammaticQuerySchema.parse(query);
    const missing = (['categorySlug', 'citySlug'] as const).filter((k) => params[k] === undefined);
    if (missing.length) throw new ApiError('PARAM_REQUIRED', `Missing required query parameter: ${missing.join(', ')}.`);
    const category = usableCategory(categoryTree(snapshot), params.categorySlug!);
    if (!category) throw new ApiError('CATEGORY_NOT_FOUND', `No active category has the slug "${clip(params.categorySlug!)}".`);
    const slugOfCity = citySlug(params.citySlug!);
    const result = programmaticProviders(
      snapshot,
      category,
      params.city !== undefined ? { citySlug: slugOfCity, city: params.city } : { citySlug: slugOfCity },
      params,
    );
    return {
      body: {
        data: result.data,
        meta: {
          category: { slug: category.slug, name: category.name },
          citySlug: slugOfCity,
          city: params.city ?? null,
          page: params.page,
          limit: params.limit,
          total: result.total,
          totalPages: result.totalPages,
          trustThreshold: TRUST_THRESHOLD,
        },
      },
      page: { page: params.page, totalPages: result.totalPages },
    };
  },
});

export const compareRoute = defineRoute({
  path: '/api/v1/discovery/compare',
  operationId: 'compareProviders',
  summary: 'Compare two published providers',
  description: '`data` is in the order slugA, slugB. Not cached (`comparedAt` is the creation time of the response).',
  tag: 'Discovery',
  query: CompareQuerySchema,
  requiredQuery: ['slugA', 'slugB'],
  response: CompareResponseSchema,
  errors: ['PARAM_REQUIRED', 'SLUG_DUPLICATE', 'PROVIDER_NOT_FOUND'],
  cache: 'no-store',
  handle({ query, snapshot }) {
    const { slugA, slugB } = CompareQuerySchema.parse(query);
    const missing = [slugA === undefined && 'slugA', slugB === undefined && 'slugB'].filter(Boolean);
    if (missing.length) throw new ApiError('PARAM_REQUIRED', `Missing required query parameter: ${missing.join(', ')}.`);
    if (slugA === slugB) throw new ApiError('SLUG_DUPLICATE', 'slugA and slugB must name two different providers.');
    const rowA = publishedRowBySlug(snapshot, slugA!);
    const rowB = publishedRowBySlug(snapshot, slugB!);
    const unknown = [!rowA && slugA, !rowB && slugB].filter((s): s is string => typeof s === 'string');
    if (!rowA || !rowB) {
      throw new ApiError('PROVIDER_NOT_FOUND', `No published provider has the slug ${unknown.map((s) => `"${clip(s)}"`).join(' or ')}.`);
    }
    return {
      body: {
        data: [comparisonItem(snapshot, rowA), comparisonItem(snapshot, rowB)],
        meta: {
          slugs: [slugA!, slugB!],
          comparedAt: new Date().toISOString(),
          comparisonContext: comparisonContext(snapshot, rowA, rowB),
        },
      },
    };
  },
});
