/**
 * The first rebuild on a machine finds a live snapshot (and maybe a site) that no
 * release folder holds yet, e.g. the one `npm start` built from the seed. It is
 * adopted as a release first, so `npm run rollback` can always return to it.
 * Its site is written out whole as the release's client/ (hard links), whether
 * STATIC_ROOT points at a plain folder (dist/client, or a release's client/ of
 * the layout before layered sites) or at a layered site.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readSnapshotMeta } from '../snapshot/snapshot-file.ts';
import { newReleaseId, readHistory, releaseDir, writeHistory, type ReleaseInfo, type ReleasePaths } from './releases.ts';
import { exportSite, makeFullSite } from './site-layers.ts';

export function adoptLive(paths: ReleasePaths, log: (msg: string) => void, defaultClient = path.resolve('dist/client')): string | undefined {
  if (readHistory(paths).length > 0 || !fs.existsSync(paths.liveSnapshot)) return undefined;
  const meta = readSnapshotMeta(paths.liveSnapshot);
  const id = `${newReleaseId(meta.snapshotId)}-adopted`;
  const dir = releaseDir(paths, id);
  const work = `${dir}.tmp`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    fs.linkSync(paths.liveSnapshot, path.join(work, 'snapshot.db'));
  } catch {
    fs.copyFileSync(paths.liveSnapshot, path.join(work, 'snapshot.db'));
  }
  const liveClient = fs.existsSync(paths.staticRoot) ? fs.realpathSync(paths.staticRoot) : defaultClient;
  if (fs.existsSync(liveClient)) {
    exportSite(liveClient, path.join(work, 'client'));
    makeFullSite(work);
  }
  const info: ReleaseInfo = {
    id,
    snapshotId: meta.snapshotId,
    builtAt: meta.builtAt,
    datasetHash: meta.datasetHash,
    input: meta.datasetSource,
    createdAt: new Date().toISOString(),
    render: { mode: 'adopted', renderedPaths: 0, copiedPaths: 0, ms: 0 },
    fingerprint: 'unknown', // not rendered by rebuild: the next render is a full one
  };
  fs.writeFileSync(path.join(work, 'release.json'), JSON.stringify(info, null, 2) + '\n');
  fs.renameSync(work, dir);
  writeHistory(paths, [id]);
  log(`adopted the live snapshot ${meta.snapshotId} as release ${id} (the rollback target)`);
  return id;
}
