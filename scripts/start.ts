/** npm start: build what is missing or stale (snapshot, site), then serve on PORT. */
import { withAllocatorSetting } from '../src/cli/allocator.ts';
import { loadEnv } from '../src/env.ts';
import { buildSite, ensureSnapshot, PrepareError, siteIsStale } from '../src/cli/prepare.ts';

// Before the build, so that serve.ts (imported below) finds the setting and the process is replaced once.
withAllocatorSetting();

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
