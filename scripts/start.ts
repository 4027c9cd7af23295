/** npm start: build what is missing or stale (snapshot, site), then serve on PORT. */
import { SERVER_V8_FLAGS } from '../src/cli/server-heap.ts';
import { withStartVariables } from '../src/cli/start-variables.ts';

// Before the build and before the modules load, so that they load once and serve.ts (imported
// below) finds the variables and flags set. A build this runs runs with the server's flags.
withStartVariables(process.env, SERVER_V8_FLAGS);

const { loadEnv } = await import('../src/env.ts');
const { buildSite, ensureSnapshot, PrepareError, siteIsStale } = await import('../src/cli/prepare.ts');

const log = (msg: string) => console.error(msg);
try {
  const env = loadEnv();
  await ensureSnapshot(env, log);
  if (siteIsStale(env.distDir, env.directoryDb)) buildSite(env, process.env, log);
} catch (err) {
  console.error(err instanceof PrepareError ? err.message : err);
  process.exit(1);
}
await import('./serve.ts');
