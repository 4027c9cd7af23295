/**
 * The OpenAPI 3.1 document, generated from the route objects and their zod schemas
 * (never written by hand): the same schemas parse the requests and type the
 * responses. JSON Schema 2020-12 is OpenAPI 3.1's schema dialect, so zod 4's
 * `z.toJSONSchema` output is used as it is.
 */
import * as z from 'zod';
import type { AppContext } from './context.ts';
import { ERROR_CODES, type ErrorCode } from './errors.ts';
import { ErrorResponseSchema } from '../schemas/api/responses.ts';
import type { RestRoute } from './rest/route.ts';
import { keyProtectedPaths, SECURITY_SCHEMES } from './openapi-keyed.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
  return rest;
}

const componentName = (route: RestRoute) => route.operationId[0]!.toUpperCase() + route.operationId.slice(1) + 'Response';

function parameters(route: RestRoute) {
  const params: JsonSchema[] = [];
  for (const [name, description] of Object.entries(route.pathParams ?? {})) {
    params.push({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  }
  for (const [name, field] of Object.entries(route.query?.shape ?? {})) {
    const schema = jsonSchema(field as z.ZodType);
    const { description, ...rest } = schema;
    params.push({
      name,
      in: 'query',
      required: route.requiredQuery?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    });
  }
  return params;
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'INTERNAL_ERROR' as const]) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.join(', '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      },
    ]),
  );
}

export function buildOpenApiDocument(routes: RestRoute[], serverUrl: string) {
  const paths: Record<string, JsonSchema> = {};
  const schemas: Record<string, JsonSchema> = { ErrorResponse: jsonSchema(ErrorResponseSchema) };
  for (const route of routes) {
    schemas[componentName(route)] = jsonSchema(route.response);
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        tags: [route.tag],
        parameters: parameters(route),
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(route)}` } } },
          },
          ...(route.cache === 'snapshot' ? { '304': { description: 'Not Modified (If-None-Match matched the ETag)' } } : {}),
          ...errorResponses(route.errors),
        },
      },
    };
  }
  const keyed = keyProtectedPaths();
  Object.assign(paths, keyed.paths);
  Object.assign(schemas, keyed.schemas);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Provider Directory API',
      version: '1.0.0',
      description:
        'Public, read-only JSON API of the provider directory. Only published providers are exposed. ' +
        'Errors use the envelope {error: {code, message, details}}. Responses carry ETag, X-Snapshot-Id and CORS headers.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

/** The document for this process's PUBLIC_API_URL (built once, kept on the app context). */
export function openApiDocument(routes: RestRoute[], app: AppContext) {
  return app.memo('openapi-document', () => buildOpenApiDocument(routes, app.env.publicApiUrl));
}
