/**
 * The one Node process: static files first (the CDN's job, done here too), then
 * the lean dynamic path (/api/*, /mcp, /healthz) through web-standard handlers,
 * then Astro's middleware-mode handler for the server-rendered pages (/search,
 * /compare). Astro's own Node server costs several times plain node:http per
 * request (issue 7), which is why the API does not go through it.
 *
 * The security headers (src/web/security-headers.ts) are added here, at the edge,
 * once per answer: the dynamic paths and every refusal get the `shared` kind, the
 * server-rendered pages and the 404 page the `page` kind, and static files their
 * rule's (the `headersFor` rules, which the CDN and nginx forms are made from).
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { handleRequest, isDynamicPath } from './app.ts';
import type { SnapshotLease } from './snapshot-holder.ts';
import { answerClientError } from './client-errors.ts';
import type { AppContext } from './context.ts';
import type { RequestLogInfo } from './logging.ts';
import { isDraining, trackConnections } from './drain.ts';
import { ApiError } from './errors.ts';
import { handleHealth } from './health.ts';
import { BodyTooLargeError, MAX_BODY_BYTES, sendWebResponse, toWebRequest, writeReply } from './node-bridge.ts';
import { MemoryRateLimitStore } from './rate-limit/memory-store.ts';
import { PublicLimit } from './rate-limit/public-limit.ts';
import { RateLimiter } from './rate-limit/limiter.ts';
import { RedisRateLimitStore } from './rate-limit/redis-store.ts';
import { errorReply } from './respond.ts';
import { StaticFiles, type HeaderRules } from './static-files.ts';
import { responseCacheFor, type ResponseCache } from './response-cache.ts';
import { restTarget, serveRest } from './rest-node.ts';
import { securityHeaders } from '../web/security-headers.ts';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse, next?: (err?: unknown) => void) => unknown;

export interface ServerOptions {
  /** settings, logger, snapshot holder and services, made by the entry point (src/server/context.ts) */
  context: AppContext;
  /** dist/server/entry.mjs of `astro build` (middleware mode); absent = no server-rendered pages. */
  astroEntry?: string;
  headersFor: HeaderRules;
  onRequestEnd?: (info: RequestLogInfo) => void;
  /** Called when a request arrives (debug logs: proves which requests were in flight). */
  onRequestStart?: (info: Pick<RequestLogInfo, 'requestId' | 'method'>) => void;
  /** The public API's answer cache; default: one of env.apiResponseCacheMb (none when 0). */
  responseCache?: ResponseCache;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;
/** node:http checks header and request timeouts this often (its default, 30 s, would let a slow client stay 40 s). */
const TIMEOUT_CHECK_MS = 1_000;

export async function createNodeServer(options: ServerOptions): Promise<http.Server> {
  const { context } = options;
  const { env } = context;
  const origin = `http://${env.host}:${env.port}`;
  const statics = new StaticFiles(() => resolveRoot(env.staticRoot), options.headersFor);
  const astro = await loadAstroHandler(options.astroEntry);
  const cache = options.responseCache ?? responseCacheFor(env.apiResponseCacheMb);
  const publicLimit = publicLimitFor(context);
  const cacheCounters = () => cache?.counters() ?? { hits: 0, misses: 0, entries: 0, bytes: 0 };
  const pageSecurity = securityHeaders(env.securityHeaders, 'page');
  const sharedSecurity = securityHeaders(env.securityHeaders, 'shared');

  const server = http.createServer(
    {
      headersTimeout: env.httpTimeouts.headersMs,
      requestTimeout: env.httpTimeouts.requestMs,
      keepAliveTimeout: env.httpTimeouts.keepAliveMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    async (req, res) => {
      const started = performance.now();
      const incoming = req.headers['x-request-id'];
      const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      const perRequest: Record<string, string> = { 'X-Request-ID': requestId };
      // While draining, every answer closes its connection (src/server/drain.ts).
      if (isDraining(server)) perRequest.Connection = 'close';
      options.onRequestStart?.({ requestId, method: req.method ?? 'GET' });
      const pathname = pathOf(req.url);
      let route = 'static';
      res.once('finish', () =>
        options.onRequestEnd?.({ requestId, method: req.method ?? 'GET', route, status: res.statusCode, ms: performance.now() - started }),
      );
      const stampHeaders = () => setHeaders(res, perRequest);
      const refuse = (err: ApiError) => writeReply(req, res, errorReply(err, context.logger), { ...perRequest, ...sharedSecurity });
      let lease: SnapshotLease | undefined;
      try {
        const dynamic = isDynamicPath(pathname);
        if (dynamic) {
          route = pathname.startsWith('/api/') ? routeLabel(pathname) : pathname;
          Object.assign(perRequest, sharedSecurity);
        } else {
          // Pages and files are read-only: no other method, and no body is ever read for them.
          if (req.method !== 'GET' && req.method !== 'HEAD') {
            perRequest.Connection = 'close';
            return refuse(new ApiError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use GET or HEAD.`, { Allow: 'GET, HEAD' }));
          }
          stampHeaders();
          if (statics.serve(req, res, pathname, {})) return; // static files never count against the public limit
          route = 'page';
        }
        if (publicLimit && countsAsPublic(req, pathname)) {
          const verdict = await publicLimit.take(req);
          if (verdict.refusal) return refuse(verdict.refusal); // the refusal carries the rate headers itself
          Object.assign(perRequest, verdict.headers);
        }
        lease = leaseSnapshot(context);
        if (lease) res.once('close', lease.release);
        const handle = () => answer(req, res, pathname, perRequest, stampHeaders);
        return await (lease ? lease.run(handle) : handle());
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          perRequest.Connection = 'close';
          return refuse(new ApiError('BODY_TOO_LARGE', `A request body may hold at most ${MAX_BODY_BYTES} bytes.`));
        }
        context.logger.error({ requestId, reason: err instanceof Error ? err.message : String(err) }, 'request failed');
        if (res.headersSent) return void res.destroy();
        stampHeaders();
        setHeaders(res, sharedSecurity);
        plain(res, 500, 'Internal Server Error');
      }
    },
  );

  /** The dynamic answer: REST fast path, the web-standard routes, or a server-rendered page. */
  async function answer(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
    perRequest: Record<string, string>,
    stampHeaders: () => void,
  ): Promise<void> {
    if (isDynamicPath(pathname)) {
      const rest = restTarget(req, origin);
      // The REST path writes the per-request headers with its own (one writeHead, no setHeader merge).
      if (rest) return serveRest(req, res, rest, cache, perRequest, context);
      stampHeaders();
      const request = await toWebRequest(req, origin);
      const response = pathname === '/healthz' ? handleHealth(request, context, cacheCounters) : await handleRequest(request, context);
      if (response) return sendWebResponse(req, res, response);
    }
    stampHeaders();
    setHeaders(res, pageSecurity);
    if (astro) return void (await astro(req, res, () => notFound(res, statics)));
    notFound(res, statics);
  }

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, sharedSecurity));
  trackConnections(server);
  return server;
}

/** The per-client budget of unkeyed requests, or undefined when PUBLIC_RATE_LIMIT_PER_MINUTE is 0. */
function publicLimitFor(context: AppContext): PublicLimit | undefined {
  const { env, rateLimitClock: clock } = context;
  if (env.publicRateLimitPerMinute === 0) return undefined;
  const store = env.redisUrl ? new RedisRateLimitStore(env.redisUrl) : new MemoryRateLimitStore(clock);
  return new PublicLimit(new RateLimiter(store, clock), env.publicRateLimitPerMinute, env.trustProxyHops, context.logger);
}

/** Everything dynamic except /healthz (load balancers poll it) and key-protected routes called with a key (the key's budget governs those). */
function countsAsPublic(req: http.IncomingMessage, pathname: string): boolean {
  if (pathname === '/healthz') return false;
  const keyProtected = pathname === '/api/ai/recommend' || (pathname === '/mcp' && req.method === 'POST');
  return !(keyProtected && (req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined));
}

/** This request's hold on the snapshot, or undefined when none can be opened (the handlers then answer 503). */
function leaseSnapshot(context: AppContext): SnapshotLease | undefined {
  try {
    return context.snapshots.lease();
  } catch {
    return undefined;
  }
}

function routeLabel(pathname: string): string {
  // Collapse path parameters so logs group by route, not by slug.
  return pathname.replace(/^(\/api\/v1\/(?:providers|reports))\/[^/]+$/, '$1/:slug');
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

function resolveRoot(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return root;
  }
}

function setHeaders(res: http.ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function notFound(res: http.ServerResponse, statics: StaticFiles): void {
  if (res.headersSent) return;
  const page = statics.resolve('/404');
  if (page) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60' });
    res.end(fs.readFileSync(page.file));
    return;
  }
  plain(res, 404, 'Not Found');
}

async function loadAstroHandler(entry: string | undefined): Promise<NodeHandler | undefined> {
  if (!entry || !fs.existsSync(entry)) return undefined;
  const mod = (await import(pathToFileURL(path.resolve(entry)).href)) as { handler?: NodeHandler };
  return mod.handler;
}

export { closeGracefully } from './drain.ts';
