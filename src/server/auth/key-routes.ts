/**
 * The key-protected routes, for the route table of src/server/routes.ts (which
 * adds HEAD, OPTIONS, 405 and the error envelope): GET /api/ai/recommend and
 * POST /mcp behind the key guard, GET /mcp open. /mcp first checks the browser
 * Origin against MCP_ALLOWED_ORIGINS (DNS-rebinding protection: requests without
 * an Origin header come from tools, not pages, and are allowed).
 */
import { currentSnapshot, type AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { handleMcpGet, handleMcpPost, mcpCost, parseMcpBody, type McpBody } from '../mcp.ts';
import { recommendHandler } from '../recommend.ts';
import type { Route } from '../rest/route.ts';
import { withApiKey } from './guard.ts';

const normalizeOrigin = (o: string) => o.trim().replace(/\/+$/, '').toLowerCase();

function checkOrigin(request: Request, app: AppContext): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  const allowed = app.memo('mcp-allowed-origins', () => new Set(app.env.mcpAllowedOrigins.map(normalizeOrigin)));
  if (!allowed.has(normalizeOrigin(origin))) {
    throw new ApiError('FORBIDDEN_ORIGIN', 'This Origin is not allowed to call /mcp (see MCP_ALLOWED_ORIGINS).');
  }
}

export const recommendRoute: Route = {
  path: '/api/ai/recommend',
  methods: ['GET'],
  handle: (request, _pathParams, app) =>
    withApiKey(request, app, (req) => recommendHandler(req, currentSnapshot(app), app.search)),
};

export const mcpRoute: Route = {
  path: '/mcp',
  methods: ['GET', 'POST'],
  handle(request, _pathParams, app) {
    checkOrigin(request, app);
    if (request.method.toUpperCase() === 'POST') {
      // The body is read after the key check (an unkeyed 1 MB body is never parsed) and
      // before the rate limit, because a batch costs one request per message.
      let body: McpBody = { kind: 'invalid-json' };
      const cost = async () => mcpCost((body = parseMcpBody(await request.text())));
      return withApiKey(
        request,
        app,
        (req) => {
          let snapshot: ReturnType<typeof currentSnapshot> | undefined;
          return handleMcpPost(req, body, () => (snapshot ??= currentSnapshot(app)), app);
        },
        cost,
      );
    }
    return handleMcpGet(request);
  },
};
