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
import { handleMcpGet, handleMcpPost } from '../mcp.ts';
import { recommendHandler } from '../recommend.ts';
import type { Route } from '../routes.ts';
import { withApiKey } from './guard.ts';

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
  handle: (request) => withApiKey(request, (req) => recommendHandler(req, currentSnapshot())),
};

export const mcpRoute: Route = {
  path: '/mcp',
  methods: ['GET', 'POST'],
  handle(request) {
    checkOrigin(request);
    if (request.method.toUpperCase() === 'POST') {
      return withApiKey(request, (req) => {
        let snapshot: ReturnType<typeof currentSnapshot> | undefined;
        return handleMcpPost(req, () => (snapshot ??= currentSnapshot()));
      });
    }
    return handleMcpGet(request);
  },
};
