/**
 * The editor's rebuild (npm run rebuild -- --input DIR), step by step:
 *   1. validate the dataset and build its snapshot into a new release folder;
 *   2. compare it with the live snapshot (providers added, removed, updated);
 *   3. render the site into the release folder (incremental when it can be: the
 *      changed files layered over the previous site, site-layers.ts);
 *   4. list the URLs whose pages changed (changed-urls.txt, indexnow.json);
 *   5. go live: STATIC_ROOT symlink swap, then DIRECTORY_DB rename;
 *   6. copy the new live snapshot for the next publish's incremental build (spare-snapshot.ts);
 *   7. with RELEASE_ORIGIN_DIR, publish the release there for the other nodes (origin-publish.ts).
 * A rebuild started while another rebuild or rollback runs waits its turn (release-lock.ts);
 * each step's time is logged as it ends and kept in release.json (rebuild-steps.ts).
 * The new snapshot's check (quick_check, which reads the whole file: seconds at a
 * million providers) runs on a worker thread beside steps 2 to 4; the switch waits
 * for its verdict. A snapshot built on the spare copy (step 6 of the rebuild before)
 * gets its structure checked only: the copy was checked whole when it was made.
 * Nothing live is touched before step 5, so any failure (a dataset error, a failed
 * check or render) leaves the live snapshot and site byte-identical; the half-built
 * release folder is removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../env.ts';
import { buildChoosing } from '../snapshot/build-choice.ts';
import type { Embedder } from '../snapshot/embedder.ts';
import { diffSnapshots, type SnapshotDiff } from './diff.ts';
import { buildFingerprint } from './fingerprint.ts';
import { adoptLive } from './adopt.ts';
import {
  activate,
  checkStaticRootSwappable,
  liveReleaseId,
  newReleaseId,
  OpsError,
  prune,
  readHistory,
  readReleaseInfo,
  releaseDir,
  releaseSnapshot,
  writeHistory,
  type ReleaseInfo,
  type ReleasePaths,
} from './releases.ts';
import { renderRelease, type PreviousRelease, type RenderResult } from './render.ts';
import { changedUrlPaths, writeIndexNowFiles, type ChangedUrls } from './changed-urls.ts';
import { verifyOffThread } from './verify.ts';
import { checkSnapshotStructure } from '../snapshot/snapshot-file.ts';
import { ensureSite, siteOf } from './site-layers.ts';
import { publishAfterSwitch, type PublishOutcome } from './origin-publish.ts';
import { withLock } from './release-lock.ts';
import { prepareSpareSnapshot, readySpareSnapshot } from './spare-snapshot.ts';
import { StepClock, type RebuildTimings } from './rebuild-steps.ts';

export interface RebuildOptions {
  inputDir: string;
  paths: ReleasePaths;
  /** The parsed settings: the public URLs and the settings the build fingerprint covers. */
  env: Env;
  indexNowKey: string;
  /** The external embedder EMBEDDER_* names (opened by the entry point), or null for the built-in one. */
  embedder: Embedder | null;
  /** The entry point's environment, inherited by the `astro build` child. */
  baseEnv: NodeJS.ProcessEnv;
  forceFull?: boolean;
  keep?: number;
  log: (msg: string) => void;
}

export interface RebuildResult {
  releaseId: string;
  snapshotId: string;
  previousReleaseId: string | undefined;
  diff: SnapshotDiff;
  render: RenderResult;
  urls: ChangedUrls;
  urlsFile: string;
  indexNowFile: string;
  /** set when RELEASE_ORIGIN_DIR is: the release published for the other nodes, or why not */
  published?: PublishOutcome;
  timings: RebuildTimings;
}

/** The rendered server bundle imports packages by name: its folder must see the project's node_modules. */
function checkResolvesPackages(dir: string): void {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'node_modules', 'astro'))) return;
    if (path.dirname(d) === d) break;
  }
  throw new OpsError(`RELEASES_DIR=${dir} is outside the project folder: rendered releases could not load their packages. Keep it inside the project (default: releases/).`);
}

export function rebuild(o: RebuildOptions): Promise<RebuildResult> {
  checkStaticRootSwappable(o.paths);
  checkResolvesPackages(o.paths.releasesDir);
  if (!fs.existsSync(path.join(o.inputDir))) throw new OpsError(`--input ${o.inputDir} does not exist`);
  const clock = new StepClock(o.log);
  const queued = performance.now();
  return withLock(o.paths.releasesDir, { task: `rebuild --input ${o.inputDir}`, log: o.log }, () => {
    clock.record('queue', performance.now() - queued);
    return rebuildLocked(o, clock);
  });
}

async function rebuildLocked(o: RebuildOptions, clock: StepClock): Promise<RebuildResult> {
  const { paths, log } = o;
  adoptLive(paths, log);
  const previousId = liveReleaseId(paths);
  const previousInfo = previousId ? readReleaseInfo(paths, previousId) : undefined;
  const work = path.join(paths.releasesDir, `.build-${process.pid}-${Date.now()}`);
  fs.mkdirSync(work, { recursive: true });
  try {
    const snapshotFile = path.join(work, 'snapshot.db');
    log(`validating ${o.inputDir} and building the snapshot ...`);
    // The snapshot the live site was rendered from (the live file, when no release holds it): the
    // base of an incremental build when the change is small (build-choice.ts; --full forces a full
    // one), and what the diff compares with.
    // A copy of it made after the last publish is taken instead of copying it now (spare-snapshot.ts).
    const liveBase = previousId && fs.existsSync(releaseSnapshot(paths, previousId)) ? releaseSnapshot(paths, previousId) : fs.existsSync(paths.liveSnapshot) ? paths.liveSnapshot : undefined;
    const built = await clock.time('snapshot', async () => {
      const baseCopy = previousId && liveBase === releaseSnapshot(paths, previousId) ? readySpareSnapshot(paths, previousId, liveBase) : undefined;
      const chosen = await buildChoosing({ inputDir: o.inputDir, outFile: snapshotFile, embedder: o.embedder, base: liveBase, baseCopy, forceFull: o.forceFull });
      log(chosen.line);
      return { ...chosen.result, onBaseCopy: chosen.onBaseCopy };
    });
    // Built on the spare (checked whole when it was made, spare-snapshot.ts) and changed through
    // SQLite only: its structure is checked. Any other new snapshot gets quick_check.
    if (built.onBaseCopy) log('snapshot check: structure (built on the copy checked after the last publish)');
    const verification = built.onBaseCopy ? Promise.resolve(checkSnapshotStructure(snapshotFile)) : verifyOffThread(snapshotFile);

    const fingerprint = buildFingerprint(o.env);
    if (previousId) ensureSite(releaseDir(paths, previousId));
    const previous: PreviousRelease | undefined =
      previousId && previousInfo
        ? {
            dir: releaseDir(paths, previousId),
            server: path.join(releaseDir(paths, previousId), 'server'),
            snapshotFile: path.join(releaseDir(paths, previousId), 'snapshot.db'),
            fingerprint: previousInfo.fingerprint,
            site: previousInfo.site,
          }
        : undefined;
    const diff = await clock.time('diff', () => diffSnapshots(liveBase, snapshotFile));
    const render = await clock.time('render', async () => {
      return renderRelease({ dir: work, snapshotFile, previous, diff, fingerprint, forceFull: o.forceFull, log, baseEnv: o.baseEnv, sitemapMaxUrls: o.env.sitemapMaxUrls });
    });

    const { urls, urlsFile, bodyFile } = await clock.time('urls', () => {
      const previousSite = previous && fs.existsSync(siteOf(previous.dir)) ? siteOf(previous.dir) : undefined;
      const changed = changedUrlPaths(previousSite, siteOf(work), render.rendered, render.removed);
      return { urls: changed, ...writeIndexNowFiles(work, changed, o.env.publicWebUrl, o.indexNowKey) };
    });

    await clock.time('verify', async () => {
      const verdict = await verification;
      if (!verdict.ok) throw new OpsError(`the new snapshot failed its check: ${verdict.reason}`);
    });

    const id = newReleaseId(built.snapshotId);
    const info: ReleaseInfo = {
      id,
      snapshotId: built.snapshotId,
      builtAt: built.builtAt,
      datasetHash: built.datasetHash,
      input: path.resolve(o.inputDir),
      createdAt: new Date().toISOString(),
      render: { mode: render.mode, renderedPaths: render.renderedPaths, copiedPaths: render.copiedPaths, ms: Math.round(render.ms) },
      fingerprint,
      site: { ...render.site, base: render.site.base ?? id },
    };
    writeReleaseInfo(work, { ...info, ...clock.timings(render.childPeakRssMb ?? null) });
    const finalDir = releaseDir(paths, id);
    fs.renameSync(work, finalDir);

    await clock.time('switch', () => {
      activate(paths, id);
      writeHistory(paths, [...readHistory(paths), id]);
    });
    await clock.time('prune', () => {
      try {
        const removed = prune(paths, o.keep ?? 3);
        if (removed.length) log(`pruned old releases: ${removed.join(', ')}`);
      } catch (err) {
        log(`warning: the release is live, but pruning old releases failed: ${(err as Error).message}`);
      }
    });
    await clock.time('spare', async () => {
      try {
        await prepareSpareSnapshot(paths, id);
      } catch (err) {
        log(`warning: the release is live, but the copy of its snapshot for the next publish failed: ${(err as Error).message}`);
      }
    });
    const originDir = o.env.releaseOriginDir;
    const published = originDir ? await clock.time('publish', () => publishAfterSwitch(paths, id, originDir)) : undefined;
    const timings = clock.timings(render.childPeakRssMb ?? null);
    // Again with the steps after the switch (a new file: the origin may hold a hard link of the first).
    writeReleaseInfo(finalDir, { ...info, ...timings });
    return {
      timings,
      published,
      releaseId: id,
      snapshotId: built.snapshotId,
      previousReleaseId: previousId,
      diff,
      render,
      urls,
      urlsFile: path.join(finalDir, path.basename(urlsFile)),
      indexNowFile: path.join(finalDir, path.basename(bodyFile)),
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function writeReleaseInfo(dir: string, info: ReleaseInfo & RebuildTimings): void {
  const file = path.join(dir, 'release.json');
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(info, null, 2) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}
