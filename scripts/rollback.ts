/**
 * npm run rollback: makes the previous release (snapshot and site) live again.
 * Servers pick the snapshot up without a restart; the static root is a symlink.
 * With RELEASE_ORIGIN_DIR the origin announces it too, and the nodes follow.
 */
import { loadEnv } from '../src/env.ts';
import { describePublish } from '../src/ops/origin-publish.ts';
import { rollback } from '../src/ops/rollback.ts';
import { releasePaths } from '../src/ops/settings.ts';

try {
  const env = loadEnv();
  const result = await rollback(releasePaths(env), env.releaseOriginDir, (msg) => process.stderr.write(`rollback: ${msg}\n`));
  process.stdout.write(`rolled back from ${result.from} to ${result.to.id} (snapshot ${result.to.snapshotId}, built ${result.to.builtAt})\n`);
  if (result.published) {
    process.stdout.write(`${describePublish(result.published, env.releaseOriginDir!)}\n`);
    if (!result.published.ok) process.exitCode = 1;
  }
} catch (err) {
  process.stderr.write(`rollback: ${(err as Error).message}\n`);
  process.exit(1);
}
