/**
 * Serves the static surface, the API and the server-rendered pages on one port.
 * Expects a built snapshot (DIRECTORY_DB) and, for pages, `astro build` output.
 * `npm start` builds what is missing first and then runs this.
 */
import path from 'node:path';
import { loadEnv } from '../src/env.ts';
import { createNodeServer, closeGracefully } from '../src/server/node-server.ts';
import { headersForStaticPath } from '../src/site/static-headers.ts';

const env = (() => {
  try {
    return loadEnv();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();

const server = await createNodeServer({
  env,
  astroEntry: path.resolve(process.env.ASTRO_SERVER_ENTRY ?? 'dist/server/entry.mjs'),
  headersFor: headersForStaticPath,
});

server.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  console.log(`Provider directory listening on http://${env.host}:${port}`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await closeGracefully(server);
    process.exit(0);
  });
}
