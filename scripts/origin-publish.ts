/**
 * npm run origin:publish: publishes the live release to RELEASE_ORIGIN_DIR (what rebuild
 * and rollback do after their switch): the first release of a new origin, or again
 * after a publish that failed. Nothing changes on this machine.
 */
import { loadEnv } from '../src/env.ts';
import { describePublish, publishAfterSwitch } from '../src/ops/origin-publish.ts';
import { liveReleaseId, OpsError } from '../src/ops/releases.ts';
import { withLock } from '../src/ops/release-lock.ts';
import { releasePaths } from '../src/ops/settings.ts';

try {
  const env = loadEnv();
  if (!env.releaseOriginDir) throw new OpsError('set RELEASE_ORIGIN_DIR: the folder the origin serves');
  const originDir = env.releaseOriginDir;
  const paths = releasePaths(env);
  const lock = { task: 'origin:publish', log: (msg: string) => process.stderr.write(`publish: ${msg}\n`) };
  const outcome = await withLock(paths.releasesDir, lock, async () => {
    const id = liveReleaseId(paths);
    if (!id) throw new OpsError(`no live release in ${paths.releasesDir}: npm run rebuild makes one`);
    return publishAfterSwitch(paths, id, originDir);
  });
  process.stdout.write(`${describePublish(outcome, originDir)}\n`);
  if (!outcome.ok) process.exitCode = 1;
} catch (err) {
  process.stderr.write(`publish: ${(err as Error).message}\n`);
  process.exit(1);
}
