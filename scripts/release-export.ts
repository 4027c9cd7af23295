/**
 * npm run release:export -- DIR [--release ID]: writes a release's site (the live
 * one by default) out as a plain folder DIR of hard links (copies across
 * filesystems), the overlay and deletions applied: what a CDN deploy uploads.
 * DIR must not exist. Nothing changes in the releases.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '../src/env.ts';
import { liveReleaseId, OpsError, releaseDir } from '../src/ops/releases.ts';
import { withLock } from '../src/ops/release-lock.ts';
import { releasePaths } from '../src/ops/settings.ts';
import { ensureSite, exportSite, siteOf } from '../src/ops/site-layers.ts';

try {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { release: { type: 'string' } } });
  if (positionals.length !== 1) throw new OpsError('usage: npm run release:export -- DIR [--release ID]');
  const to = path.resolve(positionals[0]!);
  const paths = releasePaths(loadEnv());
  const { id, files } = await withLock(paths.releasesDir, { task: `release:export ${to}`, log: (msg) => process.stderr.write(`release:export: ${msg}\n`) }, async () => {
    const id = values.release ?? liveReleaseId(paths);
    if (!id) throw new OpsError(`no live release in ${paths.releasesDir}: npm run rebuild makes one`);
    ensureSite(releaseDir(paths, id));
    return { id, files: exportSite(siteOf(releaseDir(paths, id)), to) };
  });
  process.stdout.write(`exported release ${id}: ${files} files in ${to}\n`);
} catch (err) {
  process.stderr.write(`release:export: ${(err as Error).message}\n`);
  process.exit(1);
}
