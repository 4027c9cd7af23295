/**
 * The one Node process: static files first (the CDN's job, done here too), then
 * the lean dynamic path (/api/*, /mcp, /healthz) through web-standard handlers,
 * then Astro's middleware-mode handler for the server-rendered pages (/search,
 * /compare). Astro's own Node server costs several times plain node:http per
 * request (issue 7), which is why the API does not go through it.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Env } from '../env.ts';
import { handleRequest, isDynamicPath } from './app.ts';
import { BodyTooLargeError, sendWebResponse, toWebRequest } from './node-bridge.ts';
import { StaticFiles, type HeaderRules } from './static-files.ts';
import { responseCacheFor, type ResponseCache } from './response-cache.ts';
import { restTarget, serveRest } from './rest-node.ts';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse, next?: (err?: unknown) => void) => unknown;

export interface ServerOptions {
  env: Env;
  /** dist/server/entry.mjs of `astro build` (middleware mode); absent = no server-rendered pages. */
  astroEntry?: string;
  headersFor: HeaderRules;
  onRequestEnd?: (info: RequestLogInfo) => void;
  /** Called when a request arrives (debug logs: proves which requests were in flight). */
  onRequestStart?: (info: Pick<RequestLogInfo, 'requestId' | 'method'>) => void;
  /** The public API's answer cache; default: one of env.apiResponseCacheMb (none when 0). */
  responseCache?: ResponseCache;
}

export interface RequestLogInfo {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export async function createNodeServer(options: ServerOptions): Promise<http.Server> {
  const { env } = options;
  const origin = `http://${env.host}:${env.port}`;
  const statics = new StaticFiles(() => resolveRoot(env.staticRoot), options.headersFor);
  const astro = await loadAstroHandler(options.astroEntry);
  const cache = options.responseCache ?? responseCacheFor(env.apiResponseCacheMb);

  const server = http.createServer(async (req, res) => {
    const started = performance.now();
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const perRequest: Record<string, string> = { 'X-Request-ID': requestId };
    // While draining, tell keep-alive clients not to reuse the connection.
    if (draining.has(server)) perRequest.Connection = 'close';
    options.onRequestStart?.({ requestId, method: req.method ?? 'GET' });
    const pathname = pathOf(req.url);
    let route = 'static';
    res.once('finish', () =>
      options.onRequestEnd?.({ requestId, method: req.method ?? 'GET', route, status: res.statusCode, ms: performance.now() - started }),
    );
    const stampHeaders = () => {
      for (const name in perRequest) res.setHeader(name, perRequest[name]!);
    };
    try {
      const dynamic = isDynamicPath(pathname);
      if (dynamic) {
        route = pathname.startsWith('/api/') ? routeLabel(pathname) : pathname;
        const rest = restTarget(req, origin);
        // The REST path writes the per-request headers with its own (one writeHead, no setHeader merge).
        if (rest) return await serveRest(req, res, rest, cache, perRequest);
      }
      stampHeaders();
      if (dynamic) {
        const response = await handleRequest(await toWebRequest(req, origin));
        if (response) return await sendWebResponse(req, res, response);
      }
      if ((req.method === 'GET' || req.method === 'HEAD') && statics.serve(req, res, pathname, {})) return;
      route = 'page';
      if (astro) return await astro(req, res, () => notFound(res, statics));
      notFound(res, statics);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return plain(res, 413, 'Payload Too Large');
      console.error(`request ${requestId} failed:`, err instanceof Error ? err.message : err);
      if (res.headersSent) return void res.destroy();
      stampHeaders();
      plain(res, 500, 'Internal Server Error');
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
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

const draining = new WeakSet<http.Server>();

/**
 * Stops accepting connections, lets in-flight requests finish (their responses
 * carry `Connection: close`), closes keep-alive connections as they turn idle,
 * then resolves. After timeoutMs whatever is left is cut.
 */
export function closeGracefully(server: http.Server, timeoutMs = 10_000): Promise<void> {
  draining.add(server);
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      clearInterval(sweep);
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
