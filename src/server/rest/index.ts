/** Every public REST route under /api/v1, in documentation order. */
import * as z from 'zod';
import { openApiDocument } from '../openapi.ts';
import { categoriesRoute, providerDetailRoute, providersRoute } from './catalog.ts';
import { compareRoute, programmaticParamsRoute, programmaticRoute } from './discovery.ts';
import { reportRoute } from './reports.ts';
import { defineRoute, type RestRoute } from './route.ts';
import { searchRoute } from './search.ts';

const openApiRoute: RestRoute = defineRoute({
  path: '/api/v1/openapi.json',
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI 3.1 document',
  tag: 'Meta',
  response: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
  errors: [],
  cache: 'snapshot',
  handle: ({ app }) => ({ body: openApiDocument(REST_ROUTES, app) }),
});

export const REST_ROUTES: RestRoute[] = [
  categoriesRoute,
  providersRoute,
  providerDetailRoute,
  searchRoute,
  programmaticParamsRoute,
  programmaticRoute,
  compareRoute,
  reportRoute,
  openApiRoute,
];
