/**
 * OpenAPI entries of the key-protected endpoints (GET /api/ai/recommend, /mcp),
 * generated from the same zod schemas their handlers use. Kept apart from the
 * public REST routes because they are authenticated, rate limited and (for /mcp)
 * JSON-RPC rather than REST.
 */
import * as z from 'zod';
import { RecommendParamsSchema } from './recommend-params.ts';
import { RecommendResponseSchema } from './recommend.ts';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
  return rest;
};

const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };

const RATE_LIMIT_HEADERS = Object.fromEntries(
  [
    ['x-ratelimit-limit', 'requests allowed per one-minute window for this key (30 regular, 120 enterprise)'],
    ['x-ratelimit-remaining', 'requests left in the current window'],
    ['x-ratelimit-reset', 'seconds until the window resets'],
    ['RateLimit-Policy', 'IETF draft: "default";q=LIMIT;w=60'],
    ['RateLimit', 'IETF draft: "default";r=REMAINING;t=SECONDS'],
  ].map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
);

const keyErrors = {
  '401': { description: 'API_KEY_REQUIRED (no key sent), API_KEY_INVALID (unknown, revoked or expired key)', ...errorRef },
  '429': {
    description: 'RATE_LIMIT_EXCEEDED; Retry-After says when to try again',
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { schema: { type: 'string' } } },
    ...errorRef,
  },
};

export const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key (`npm run keys -- create`)' },
  Bearer: { type: 'http', scheme: 'bearer', description: 'the same API key as `Authorization: Bearer <API_KEY>`' },
};

const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).optional().describe('absent for notifications (answered 202)'),
  method: z.string().describe('tools/list, tools/call, initialize, ping, notifications/initialized'),
  params: z.record(z.string(), z.unknown()).optional(),
});

export function keyProtectedPaths(): { paths: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> } {
  const params = Object.entries(RecommendParamsSchema.shape).map(([name, field]) => {
    const { description, ...schema } = toSchema(field as z.ZodType);
    return { name, in: 'query', required: name === 'q', ...(description ? { description } : {}), schema };
  });
  const security = [{ ApiKey: [] }, { Bearer: [] }];
  return {
    schemas: { RecommendResponse: toSchema(RecommendResponseSchema), JsonRpcRequest: toSchema(JsonRpcRequestSchema) },
    paths: {
      '/api/ai/recommend': {
        get: {
          operationId: 'recommendProviders',
          summary: 'Provider candidates for a natural-language request (Indonesian or English)',
          tags: ['AI'],
          security,
          parameters: params,
          responses: {
            '200': {
              description: 'OK',
              headers: RATE_LIMIT_HEADERS,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/RecommendResponse' } } },
            },
            '400': { description: 'QUERY_REQUIRED, QUERY_TOO_SHORT, QUERY_TOO_LONG, INVALID_PARAM', ...errorRef },
            ...keyErrors,
          },
        },
      },
      '/mcp': {
        post: {
          operationId: 'mcp',
          summary: 'JSON-RPC 2.0 tool endpoint (tools/list, tools/call; MCP 2025-11-25, stateless)',
          tags: ['MCP'],
          security,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcRequest' } } } },
          responses: {
            '200': { description: 'a JSON-RPC response (results and JSON-RPC errors alike)', headers: RATE_LIMIT_HEADERS },
            '202': { description: 'accepted notification, no body' },
            '403': { description: 'Origin not in MCP_ALLOWED_ORIGINS' },
            ...keyErrors,
          },
        },
        get: {
          operationId: 'mcpInfo',
          summary: 'service name, version, JSON-RPC version, tool names and status (405 for text/event-stream)',
          tags: ['MCP'],
          responses: { '200': { description: 'OK' }, '405': { description: 'no server-initiated stream' } },
        },
      },
    },
  };
}
