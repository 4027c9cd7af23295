/**
 * The key-protected routes, for the route table of src/server/routes.ts (which
 * adds HEAD, OPTIONS, 405 and the error envelope): GET /api/ai/recommend and
 * POST /mcp behind the key guard, GET /mcp open. /mcp first checks the browser
 * Origin against MCP_ALLOWED_ORIGINS (DNS-rebinding protection: requests without
 * an Origin header come from tools, not pages, and are allowed).
 */
import { loadEnv } from '../../env.ts';
import { currentSnapshot } from '../context.ts';
import { ApiError } from '../errors.ts';
import { handleMcpGet, handleMcpPost, mcpCost, parseMcpBody, type McpBody } from '../mcp.ts';
import { recommendHandler } from '../recommend.ts';
import type { Route } from '../rest/route.ts';
import { searchGate } from '../search-gate.ts';
import { withApiKey } from './guard.ts';
import { keyServices } from './services.ts';

let allowedOrigins: Set<string> | undefined;
const normalizeOrigin = (o: string) => o.trim().replace(/\/+$/, '').toLowerCase();

function checkOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  allowedOrigins ??= new Set(loadEnv().mcpAllowedOrigins.map(normalizeOrigin));
  if (!allowedOrigins.has(normalizeOrigin(origin))) {
    throw new ApiError('FORBIDDEN_ORIGIN', 'This Origin is not allowed to call /mcp (see MCP_ALLOWED_ORIGINS).');
  }
}

/** Forgets the cached MCP_ALLOWED_ORIGINS (tests change it). */
export function resetAllowedOrigins(): void {
  allowedOrigins = undefined;
}

export const recommendRoute: Route = {
  path: '/api/ai/recommend',
  methods: ['GET'],
  handle: (request) => withApiKey(request, (req) => searchGate().run(() => recommendHandler(req, currentSnapshot()))),
};

export const mcpRoute: Route = {
  path: '/mcp',
  methods: ['GET', 'POST'],
  handle(request) {
    checkOrigin(request);
    if (request.method.toUpperCase() === 'POST') {
      // The body is read after the key check (an unkeyed 1 MB body is never parsed) and
      // before the rate limit, because a batch costs one request per message.
      let body: McpBody = { kind: 'invalid-json' };
      const cost = async () => mcpCost((body = parseMcpBody(await request.text())));
      return withApiKey(
        request,
        (req) => {
          let snapshot: ReturnType<typeof currentSnapshot> | undefined;
          return handleMcpPost(req, body, () => (snapshot ??= currentSnapshot()));
        },
        keyServices(),
        cost,
      );
    }
    return handleMcpGet(request);
  },
};
