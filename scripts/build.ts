/** npm run build: the snapshot (if stale, default path only) and then `astro build`. */
import { loadEnv } from '../src/env.ts';
import { buildSite, ensureSnapshot, PrepareError } from '../src/cli/prepare.ts';

const log = (msg: string) => console.error(msg);
try {
  const env = loadEnv();
  await ensureSnapshot(env, log);
  buildSite(env, process.env, log);
} catch (err) {
  console.error(err instanceof PrepareError ? err.message : err);
  process.exit(1);
}
