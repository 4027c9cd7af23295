/**
 * npm run rollback: makes the previous release (snapshot and site) live again.
 * Servers pick the snapshot up without a restart; the static root is a symlink.
 */
import { loadEnv } from '../src/env.ts';
import { rollback } from '../src/ops/rollback.ts';
import { releasePaths } from '../src/ops/settings.ts';

try {
  const result = await rollback(releasePaths(loadEnv()));
  process.stdout.write(`rolled back from ${result.from} to ${result.to.id} (snapshot ${result.to.snapshotId}, built ${result.to.builtAt})\n`);
} catch (err) {
  process.stderr.write(`rollback: ${(err as Error).message}\n`);
  process.exit(1);
}
