/**
 * The route table of the lean path (/api/*, /mcp, /healthz) and the one dispatcher:
 * 404 NOT_FOUND for unknown /api paths, 405 METHOD_NOT_ALLOWED with Allow, HEAD
 * wherever GET is served, OPTIONS preflight 204 with the CORS headers, and every
 * thrown error through the one response layer (src/server/respond.ts).
 */
import { currentSnapshot, type AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { preflightHeaders } from './http.ts';
import { errorReply, errorResponse, snapshotReply, toResponse, withoutBody, type Reply } from './respond.ts';
import { REST_ROUTES } from './rest/index.ts';
import type { RestRoute, Route } from './rest/route.ts';
import { canonicalUrl } from './rest/canonical.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { queryRecord } from '../schemas/api/params.ts';
import { mcpRoute, recommendRoute } from './auth/key-routes.ts';
import { handleHealth } from './health.ts';

/**
 * A public REST GET as a Reply: the snapshot's caching headers, errors as the
 * envelope. Reads only the URL and If-None-Match, so it needs no web Request.
 * `url` is the canonical URL (src/server/rest/canonical.ts): the ETag, the Link
 * header and the handler's query all come from it.
 */
export async function restReply(
  route: RestRoute,
  url: URL,
  pathParams: Record<string, string>,
  ifNoneMatch: string | null | undefined,
  snapshot: Snapshot,
  app: AppContext,
): Promise<Reply> {
  try {
    return await snapshotReply(ifNoneMatch, url, snapshot, route.cache, () =>
      route.handle({ url, query: queryRecord(url.searchParams), pathParams, snapshot, app }),
    );
  } catch (err) {
    return errorReply(err, app.logger);
  }
}

/** A public REST route: GET against the current snapshot, with the snapshot's caching headers. */
export function restRoute(route: RestRoute): Route {
  return {
    path: route.path,
    methods: ['GET'],
    rest: route,
    async handle(request, pathParams, app) {
      const snapshot = currentSnapshot(app);
      const url = canonicalUrl(route, new URL(request.url), app);
      return toResponse(await restReply(route, url, pathParams, request.headers.get('If-None-Match'), snapshot, app));
    },
  };
}

/** The public REST routes, then the key-protected AI endpoint and /mcp (src/server/auth/key-routes.ts). */
export const ROUTES: Route[] = [...REST_ROUTES.map(restRoute), recommendRoute, mcpRoute];

export interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
  allow: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return escapeRegExp(part);
      names.push(m[1]!);
      return '([^/]+)';
    })
    .join('');
  const methods = new Set(route.methods);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return { route, pattern: new RegExp(`^${source}$`), names, allow: [...methods].join(', ') };
}

const TABLE: readonly CompiledRoute[] = ROUTES.map(compile);

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a bad percent-escape is taken literally (and matches no slug)
  }
};

export function match(pathname: string): { entry: CompiledRoute; params: Record<string, string> } | undefined {
  for (const entry of TABLE) {
    const m = entry.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, i) => (params[name] = decode(m[i + 1]!)));
    return { entry, params };
  }
  return undefined;
}

export async function routeRequest(request: Request, app: AppContext): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (pathname === '/healthz') return handleHealth(request, app); // src/server/health.ts (ops)
  const found = match(pathname);
  if (!found) {
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return errorResponse(new ApiError('NOT_FOUND', 'No API route has this path.'), app.logger);
    }
    return null;
  }
  const { entry, params } = found;
  const method = request.method.toUpperCase();
  try {
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: preflightHeaders(entry.allow) });
    if (method === 'HEAD' && entry.route.methods.includes('GET')) {
      return withoutBody(await entry.route.handle(new Request(request.url, { headers: request.headers }), params, app));
    }
    if (!entry.route.methods.includes(method)) {
      throw new ApiError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; use ${entry.allow}.`, {
        Allow: entry.allow,
      });
    }
    return await entry.route.handle(request, params, app);
  } catch (err) {
    const response = errorResponse(err, app.logger);
    return method === 'HEAD' ? withoutBody(response) : response;
  }
}
