/** Categories, the provider list and the provider detail. */
import type * as z from 'zod';
import { ProvidersListParamsSchema, MIN_QUERY_CODE_POINTS, codePointLength } from '../../schemas/api/params.ts';
import {
  CategoriesResponseSchema,
  ProviderDetailResponseSchema,
  ProvidersListResponseSchema,
  type ProvidersListResponse,
} from '../../schemas/api/responses.ts';
import { listCategories } from '../../query/categories.ts';
import { listProviders, providerDetail } from '../../query/providers.ts';
import { ApiError } from '../errors.ts';
import { defineRoute } from './route.ts';
import { gatedSearch } from './search.ts';

export const categoriesRoute = defineRoute({
  path: '/api/v1/categories',
  operationId: 'listCategories',
  summary: 'Active categories with their active children',
  tag: 'Directory',
  response: CategoriesResponseSchema,
  errors: [],
  cache: 'snapshot',
  handle: ({ snapshot }) => ({ body: listCategories(snapshot) }),
});

export const providersRoute = defineRoute({
  path: '/api/v1/providers',
  operationId: 'listProviders',
  summary: 'Paginated list of published providers',
  description:
    'Filters and sorts the published providers. Bad values are normalized, never an error. ' +
    'With `q` (2 code points or more) the list uses the hybrid ranking of /search and items carry `search`.',
  tag: 'Directory',
  query: ProvidersListParamsSchema,
  response: ProvidersListResponseSchema,
  errors: [],
  cache: 'snapshot',
  async handle({ query, snapshot, app }) {
    const { page, limit, q, sort, ...filters } = ProvidersListParamsSchema.parse(query);
    if (q !== undefined && codePointLength(q) >= MIN_QUERY_CODE_POINTS) {
      const effectiveSort = sort ?? 'relevance';
      const found = await gatedSearch(app, snapshot, { query: q, filters, sort: effectiveSort, page, limit });
      const body: ProvidersListResponse = {
        data: found.data,
        meta: { page, limit, total: found.total, totalPages: found.totalPages, sort: effectiveSort, q, ...found.metaTail },
      };
      return { body, page: { page, totalPages: found.totalPages }, noStore: found.noStore };
    }
    const listSort = sort === undefined || sort === 'relevance' ? 'rating' : sort;
    const result = listProviders(snapshot, filters, { sort: listSort, page, limit });
    const body: ProvidersListResponse = {
      data: result.data,
      meta: { page, limit, total: result.total, totalPages: result.totalPages, sort: listSort },
    };
    return { body, page: { page, totalPages: result.totalPages } };
  },
});

export const providerDetailRoute = defineRoute({
  path: '/api/v1/providers/{slug}',
  operationId: 'getProvider',
  summary: "One published provider's detail",
  tag: 'Directory',
  pathParams: { slug: 'URL key of the provider' },
  response: ProviderDetailResponseSchema,
  errors: ['BUSINESS_NOT_FOUND'],
  cache: 'snapshot',
  handle({ pathParams, snapshot }) {
    const slug = pathParams.slug ?? '';
    const data = providerDetail(snapshot, slug);
    if (!data) throw new ApiError('BUSINESS_NOT_FOUND', `No published provider has the slug "${clip(slug)}".`);
    return { body: { data } satisfies z.output<typeof ProviderDetailResponseSchema> };
  },
});

/** User text echoed in a message is kept short. */
export const clip = (s: string, max = 80) => ([...s].length > max ? [...s].slice(0, max).join('') + '…' : s);
