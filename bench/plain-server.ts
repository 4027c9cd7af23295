/**
 * The floor for the HTTP figures: the same search handler (`searchRoute.handle`,
 * which calls `searchProviders`) behind a bare node:http server, with no routing,
 * request id, log, CORS/ETag headers or compression. With API_RESPONSE_CACHE_MB
 * above 0 (the default, as in production) it keeps bodies in the same response
 * cache class as the production path, keyed the same way (snapshot, path and
 * query), so the ratio to scripts/serve.ts compares like with like; with 0 every
 * request runs the handler. The gap between this and scripts/serve.ts is what the
 * production path costs per request.
 *   DIRECTORY_DB=FILE PORT=N API_RESPONSE_CACHE_MB=0 node bench/plain-server.ts
 */
import http from 'node:http';
import { loadEnv } from '../src/env.ts';
import { Snapshot } from '../src/query/snapshot.ts';
import { responseCacheFor } from '../src/server/response-cache.ts';
import { searchRoute } from '../src/server/rest/search.ts';
import { createAppContext } from '../src/server/context.ts';
import { createLogger } from '../src/server/logging.ts';

const env = loadEnv();
const app = createAppContext(env, { version: 'bench', logger: createLogger(env.logLevel) });
const snapshot = new Snapshot(env.directoryDb, env.embedder);
const cache = responseCacheFor(env.apiResponseCacheMb);
const JSON_HEADERS = { 'content-type': 'application/json' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/api/v1/search') {
    res.writeHead(404).end();
    return;
  }
  const key = url.pathname + url.search;
  const hit = cache?.get(snapshot, key);
  if (hit) {
    res.writeHead(200, JSON_HEADERS);
    res.end(cache!.body(hit, null));
    return;
  }
  try {
    const query = Object.fromEntries(url.searchParams);
    const result = await searchRoute.handle({ url, query, pathParams: {}, snapshot, app });
    const body = Buffer.from(JSON.stringify(result.body));
    cache?.set(snapshot, key, { status: 200, headers: JSON_HEADERS, body }, '');
    res.writeHead(200, JSON_HEADERS);
    res.end(body);
  } catch (err) {
    res.writeHead(400, JSON_HEADERS);
    res.end(JSON.stringify({ error: { message: (err as Error).message } }));
  }
});
server.keepAliveTimeout = 65_000;
server.listen(env.port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`plain server listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : env.port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
