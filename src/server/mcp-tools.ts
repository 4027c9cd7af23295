/**
 * The three MCP tools, described for the model that reads them (STYLE.md habit
 * 11): every argument described, an output schema, read-only. Each tool returns
 * exactly what its REST or VIC counterpart returns, by calling the same code:
 * search_providers runs the /api/v1/search route, compare_providers the
 * /api/v1/discovery/compare route, get_provider_card the VIC builder. A domain
 * miss (unknown slug, query too short) is thrown as the REST ApiError; the
 * protocol layer turns it into an `isError` result carrying the REST code.
 */
import * as z from 'zod';
import { providerCategories } from '../query/categories.ts';
import { toProviderDetail } from '../query/projections.ts';
import { publishedRowBySlug } from '../query/providers.ts';
import { publicProofs } from '../query/site-providers.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { CompareResponseSchema, SearchResponseSchema } from '../schemas/api/responses.ts';
import { buildVicCard, VicCardSchema } from '../web/vic.ts';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { compareRoute } from './rest/discovery.ts';
import type { RestContext } from './rest/route.ts';
import { searchRoute } from './rest/search.ts';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  run(args: Record<string, unknown>, snapshot: Snapshot, app: AppContext): Promise<Record<string, unknown>>;
}

const MCP_SEARCH_DEFAULT_LIMIT = 10;

/** Runs a REST route's handler with the given query, as if it came over HTTP. */
async function viaRestRoute(route: typeof searchRoute, path: string, query: Record<string, string>, snapshot: Snapshot, app: AppContext) {
  const url = new URL(`http://mcp.internal${path}?${new URLSearchParams(query)}`);
  const ctx: RestContext = { url, query, pathParams: {}, snapshot, app };
  return (await route.handle(ctx)).body as Record<string, unknown>;
}

const SearchInput = z.object({
  q: z.string().describe('What the client needs, in Indonesian or English, e.g. "toko online Shopify" or "jasa SEO"; 2-200 characters'),
  city: z.string().optional().describe('Only providers in this exact city (case-insensitive), e.g. "Jakarta Selatan"'),
  categorySlug: z
    .string()
    .optional()
    .describe('Only providers in this category slug (a top-level category includes its children), e.g. "web-development" or "seo"'),
  limit: z.number().int().min(1).max(50).optional().describe(`How many providers to return, 1-50; default ${MCP_SEARCH_DEFAULT_LIMIT}`),
});

const CardInput = z.object({
  slug: z.string().min(1).describe('The provider slug, as returned by search_providers (data[].slug)'),
});

const CompareInput = z.object({
  slugA: z.string().min(1).describe('Slug of the first provider'),
  slugB: z.string().min(1).describe('Slug of the second provider (must differ from slugA)'),
});

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'search_providers',
    title: 'Search providers',
    description:
      'Hybrid search (keyword + semantic, fused by Reciprocal Rank Fusion) over published service providers ' +
      '(web, mobile, marketing, design, IT agencies), mostly in Indonesia. Returns the same body as GET /api/v1/search: ' +
      'data (provider summaries with search ranks) and meta. Errors: QUERY_REQUIRED, QUERY_TOO_SHORT.',
    input: SearchInput,
    output: SearchResponseSchema,
    async run(args, snapshot, app) {
      const { q, city, categorySlug, limit } = SearchInput.parse(args);
      const query: Record<string, string> = { q, limit: String(limit ?? MCP_SEARCH_DEFAULT_LIMIT) };
      if (city !== undefined) query.city = city;
      if (categorySlug !== undefined) query.categorySlug = categorySlug;
      return viaRestRoute(searchRoute, '/api/v1/search', query, snapshot, app);
    },
  },
  {
    name: 'get_provider_card',
    title: 'Get a provider card',
    description:
      'The provider intelligence card (VIC, JSON-LD) of one published provider: profile, location, categories, ' +
      'trust and rating, displayable commercial signals, provenance and public proofs. Same document as ' +
      '/provider/{slug}/vic.json. Error: BUSINESS_NOT_FOUND for an unknown or unpublished slug.',
    input: CardInput,
    output: VicCardSchema,
    async run(args, snapshot, app) {
      const { slug } = CardInput.parse(args);
      const row = publishedRowBySlug(snapshot, slug);
      if (!row) throw new ApiError('BUSINESS_NOT_FOUND', `No published provider has the slug "${slug.slice(0, 120)}".`);
      const detail = toProviderDetail(row, providerCategories(snapshot, row.rowid));
      return buildVicCard(detail, publicProofs(snapshot, row.rowid), { webUrl: app.env.publicWebUrl, apiUrl: app.env.publicApiUrl });
    },
  },
  {
    name: 'compare_providers',
    title: 'Compare two providers',
    description:
      'Compares two published providers side by side: both summaries with their public proof counts, and whether ' +
      'they are comparable (a shared top-level service category) with the shared categories and industries. Same body as ' +
      'GET /api/v1/discovery/compare. Errors: SLUG_DUPLICATE, PROVIDER_NOT_FOUND.',
    input: CompareInput,
    output: CompareResponseSchema,
    async run(args, snapshot, app) {
      const { slugA, slugB } = CompareInput.parse(args);
      return viaRestRoute(compareRoute, '/api/v1/discovery/compare', { slugA, slugB }, snapshot, app);
    },
  },
];

export const MCP_TOOL_NAMES = MCP_TOOLS.map((t) => t.name);

/** JSON Schema for MCP (2020-12 is MCP's default dialect, so no `$schema` keyword is sent). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return rest;
}

/** The tool objects of MCP's tools/list. */
export function mcpToolObjects() {
  return MCP_TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output'),
    annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
}
