/**
 * The node server's path for GET and HEAD on the public REST routes: no web
 * Request or Response objects (building and reading them cost more than a cached
 * answer, issue 7), the same Reply the web path builds (src/server/routes.ts
 * `restReply`), and the response cache in front of it.
 *
 * The route, the canonical URL (src/server/rest/canonical.ts: the route's
 * parameters normalized, unknown ones dropped) and from it the cache key are
 * found before the lookup, so `&x=<random>` or reordered parameters hit the same
 * entry. What stays per request: X-Request-ID, the drain's Connection header and
 * the public rate-limit headers (given by the node server, written with the
 * answer's own headers), the request log, If-None-Match -> 304 (answered from
 * the cached ETag), the compression chosen from Accept-Encoding.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Snapshot } from '../query/snapshot.ts';
import { currentSnapshot, type AppContext } from './context.ts';
import { etagMatches } from './http.ts';
import { isCompressible, writeCached, writeReply } from './node-bridge.ts';
import { errorReply, notModifiedReply, type Reply } from './respond.ts';
import type { ResponseCache } from './response-cache.ts';
import { canonicalKey } from './rest/canonical.ts';
import type { RestRoute } from './rest/route.ts';
import { match, restReply } from './routes.ts';

export interface RestTarget {
  route: RestRoute;
  pathParams: Record<string, string>;
  /** the request URL as WHATWG parses it, as on the web path */
  url: URL;
}

/** The public REST route of a GET or HEAD, or undefined (then the web path answers). */
export function restTarget(req: IncomingMessage, origin: string): RestTarget | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const url = new URL(req.url ?? '/', origin);
  const found = match(url.pathname);
  const route = found?.entry.route.rest;
  return route && found ? { route, pathParams: found.params, url } : undefined;
}

export async function serveRest(
  req: IncomingMessage,
  res: ServerResponse,
  target: RestTarget,
  cache: ResponseCache | undefined,
  perRequest: Record<string, string>,
  app: AppContext,
): Promise<void> {
  // HEAD: the headers of GET without the body (and without its length, as on the web path).
  const send = (reply: Reply) => writeReply(req, res, req.method === 'HEAD' ? { ...reply, body: null } : reply, perRequest);
  let snapshot: Snapshot;
  let key: string;
  try {
    snapshot = currentSnapshot(app);
    // The canonical path and query: what the ETag is computed from, so one cache entry per ETag.
    key = canonicalKey(target.route, target.url, app);
  } catch (err) {
    return send(errorReply(err, app.logger));
  }
  const ifNoneMatch = req.headers['if-none-match'];
  const cacheable = cache !== undefined && target.route.cache === 'snapshot';

  const hit = cacheable ? cache.get(snapshot, key) : undefined;
  if (hit) {
    if (etagMatches(ifNoneMatch ?? null, hit.etag)) return send(notModifiedReply(snapshot.id, hit.etag));
    return writeCached(req, res, hit, cache!, perRequest);
  }

  const reply = await restReply(target.route, new URL(key, target.url.origin), target.pathParams, ifNoneMatch, snapshot, app);
  const etag = reply.headers.etag;
  if (cacheable && reply.status === 200 && etag !== undefined) {
    const entry = cache.set(snapshot, key, reply, etag, isCompressible(reply));
    if (entry) return writeCached(req, res, entry, cache, perRequest);
  }
  send(reply);
}
