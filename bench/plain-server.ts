/**
 * The floor for the HTTP figures: the same search handler (`searchRoute.handle`,
 * which calls `searchProviders`) behind a bare node:http server, with no web
 * Request/Response objects, routing, headers, ETag or compression. The gap between
 * this and scripts/serve.ts is what the production path costs per request.
 *   DIRECTORY_DB=FILE PORT=N node --import tsx bench/plain-server.ts
 */
import http from 'node:http';
import { Snapshot } from '../src/query/snapshot.ts';
import { searchRoute } from '../src/server/rest/search.ts';

const snapshot = new Snapshot(process.env.DIRECTORY_DB ?? 'data/directory.db');
const port = Number(process.env.PORT ?? 0);

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/api/v1/search') {
    res.writeHead(404).end();
    return;
  }
  try {
    const query = Object.fromEntries(url.searchParams);
    // The handler reads only query and snapshot; the floor builds no web Request.
    const result = await searchRoute.handle({ request: undefined as unknown as Request, url, query, pathParams: {}, snapshot });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result.body));
  } catch (err) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: (err as Error).message } }));
  }
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`plain server listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
