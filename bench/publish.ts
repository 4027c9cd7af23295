/**
 * The publish part (issue 43: editors publish in seconds): the real `npm run rebuild`
 * in a child process, in a deployment of its own under bench/cache/publish-<n>/
 * (RELEASES_DIR, STATIC_ROOT, DIRECTORY_DB, and RELEASE_ORIGIN_DIR up to 100k). First the whole
 * dataset, then 1, 100 and 1,000 changed providers, each an edited copy of the last
 * input (bench/dataset-edit.ts). Per publish: wall time and peak RSS of the process
 * tree (bench/child.ts), each step's time and the processes' own peaks from the
 * release's release.json (src/ops/rebuild-steps.ts), the check that the change is
 * live (the edited providers' pages behind STATIC_ROOT show the edit, the unpublished
 * one's page is gone, the new one's is there), and the disk the releases and the
 * origin take (each inode once: unchanged files are hard links).
 */
import fs from 'node:fs';
import path from 'node:path';
import { runMeasured, scriptCommand } from './child.ts';
import { CACHE_DIR, type DatasetRef } from './dataset.ts';
import { writeEditedDataset, type DatasetEdit } from './dataset-edit.ts';
import { progress, progressShown } from './log.ts';
import { round } from './stats.ts';
import type { RebuildTimings } from '../src/ops/rebuild-steps.ts';
import { filesOfUrlPath } from '../src/ops/tree.ts';
import { fileInSite, siteLayers } from '../src/server/site-folder.ts';

/** The largest dataset whose publishes also publish to an origin. */
const ORIGIN_UP_TO = 100_000;

/** Changed providers of the publishes after the first. */
export const PUBLISH_CHANGES = [1, 100, 1000] as const;

export interface PublishRun {
  /** 'first' (the whole dataset) or the number of changed providers */
  change: 'first' | number;
  seconds: number;
  /** the rebuild's process tree, sampled from /proc */
  peakRssMb: number | null;
  /** release.json's: the rebuild process and the render child */
  rebuildPeakRssMb: number;
  renderPeakRssMb: number | null;
  renderMode: string;
  renderedPaths: number;
  /** step name -> seconds */
  steps: Record<string, number>;
  /** writing the edited dataset copy (not part of the publish) */
  copySeconds: number;
  /** checking the change is live behind STATIC_ROOT */
  liveCheckMs: number;
  releasesMb: number;
  /** the releases and the origin together (the origin's files are hard links of the releases') */
  releasesAndOriginMb: number;
}

export interface PublishFigures {
  providers: number;
  runs: PublishRun[];
}

interface ReleaseJson extends RebuildTimings {
  render: { mode: string; renderedPaths: number };
}

export async function runPublish(dataset: DatasetRef): Promise<PublishFigures> {
  const ws = path.resolve(CACHE_DIR, `publish-${dataset.providers}`);
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DIRECTORY_DB: path.join(ws, 'live', 'directory.db'),
    STATIC_ROOT: path.join(ws, 'live', 'current'),
    RELEASES_DIR: path.join(ws, 'releases'),
    // The origin publish runs after the switch (no target times it); at 1M it lists and copies
    // 1.6M files and a 4 GB snapshot per publish, minutes and tens of GB of disk each: measured
    // up to 100k only.
    ...(dataset.providers <= ORIGIN_UP_TO ? { RELEASE_ORIGIN_DIR: path.join(ws, 'origin') } : {}),
    KEYS_DB: path.join(ws, 'keys.db'),
    INDEXNOW_KEY: 'bench-indexnow-key-0001',
    PUBLIC_WEB_URL: process.env.PUBLIC_WEB_URL ?? 'https://bench.example',
  };
  const size = dataset.providers.toLocaleString('en-US');
  const runs: PublishRun[] = [];
  progress(`publish ${size}: first release of the whole dataset (a full render) ...`);
  runs.push(await publish('first', dataset.dir, env, 0, undefined));
  let input = dataset.dir;
  for (const [i, n] of PUBLISH_CHANGES.entries()) {
    const t0 = performance.now();
    const edit = await writeEditedDataset(input, path.join(ws, `input-${n}`), n, `r${i}`, i * 7);
    const copySeconds = (performance.now() - t0) / 1000;
    progress(`publish ${size}: ${n} changed providers (copy written in ${copySeconds.toFixed(1)} s) ...`);
    runs.push(await publish(n, edit.dir, env, copySeconds, edit));
    if (input !== dataset.dir) fs.rmSync(input, { recursive: true, force: true });
    input = edit.dir;
  }
  return { providers: dataset.providers, runs };
}

async function publish(change: PublishRun['change'], input: string, env: NodeJS.ProcessEnv, copySeconds: number, edit: DatasetEdit | undefined): Promise<PublishRun> {
  const [cmd, args] = scriptCommand('scripts/rebuild.ts', ['--input', input]);
  const run = await runMeasured(cmd, args, { env, inheritStderr: progressShown() });
  if (run.exitCode !== 0) throw new Error(`rebuild of ${input} failed (exit ${run.exitCode ?? run.signal}):\n${(run.stderr + run.stdout).slice(-3000)}`);
  const t0 = performance.now();
  const site = fs.realpathSync(env.STATIC_ROOT!);
  if (edit) checkLive(site, edit);
  const liveCheckMs = performance.now() - t0;
  const info = JSON.parse(fs.readFileSync(path.join(path.dirname(site), 'release.json'), 'utf8')) as ReleaseJson;
  const figures: PublishRun = {
    change,
    seconds: round(run.seconds, 1),
    peakRssMb: run.peakRssMb,
    rebuildPeakRssMb: info.peakRssMb,
    renderPeakRssMb: info.renderPeakRssMb,
    renderMode: info.render.mode,
    renderedPaths: info.render.renderedPaths,
    steps: Object.fromEntries(info.steps.map((s) => [s.name, round(s.ms / 1000, 2)])),
    copySeconds: round(copySeconds, 1),
    liveCheckMs: round(liveCheckMs, 1),
    releasesMb: megabytes(env.RELEASES_DIR!),
    releasesAndOriginMb: megabytes(env.RELEASES_DIR!, ...(env.RELEASE_ORIGIN_DIR ? [env.RELEASE_ORIGIN_DIR] : [])),
  };
  progress(`publish: ${change === 'first' ? 'first release' : `${change} changed`} live in ${figures.seconds} s (${Object.entries(figures.steps).map(([k, v]) => `${k} ${v}`).join(', ')}); releases ${figures.releasesMb} MB`);
  return figures;
}

/** The edit is what the live site shows; throws what is not. */
function checkLive(site: string, edit: DatasetEdit): void {
  // the page file of /provider/<slug> as the node finds it in the release's layers (src/server/site-folder.ts)
  const layers = siteLayers(site);
  const page = (slug: string) => filesOfUrlPath(`/provider/${slug}`).map((rel) => fileInSite(layers, rel)?.file).find(Boolean);
  for (const e of edit.edits) {
    const file = page(e.slug);
    if (!file) throw new Error(`the edited ${e.slug} has no live page`);
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(e.marker)) throw new Error(`the live page of ${e.slug} does not show its edited ${e.field} (${e.marker})`);
  }
  if (edit.unpublished && page(edit.unpublished)) throw new Error(`the unpublished ${edit.unpublished} still has a live page`);
  if (edit.added && !page(edit.added)) throw new Error(`the new provider ${edit.added} has no live page`);
}

/** Disk used under the folders, each inode once (hard links are not counted again), in MB. */
function megabytes(...dirs: string[]): number {
  const seen = new Set<string>();
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        const st = fs.statSync(full, { bigint: true });
        const key = `${st.dev}:${st.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
        bytes += Number(st.blocks) * 512;
      }
    }
  };
  for (const dir of dirs) if (fs.existsSync(dir)) walk(dir);
  return Math.round(bytes / 1024 / 1024);
}
