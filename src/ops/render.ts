/**
 * Renders a release's site: a full `astro build`, or an incremental one that
 * renders only the planned paths (render-plan.ts) and takes every other file from
 * the previous release (hard links), deleting pages that no longer exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SnapshotDiff, SnapshotFacts } from './diff.ts';
import { touchedProviders } from './diff.ts';
import { planIncremental, type RenderPlan } from './render-plan.ts';
import type { PublicUrls } from '../web/urls.ts';
import { readManifestDir, runAstroBuild } from './site-build.ts';
import { linkTree, listFiles, overlayTree, removeUrlPath } from './tree.ts';

export interface PreviousRelease {
  client: string;
  snapshotFile: string;
  manifest: Record<string, string[]>;
  fingerprint: string;
}

export interface RenderInput {
  /** The release folder being built: client/, server/ and pages.json go here. */
  dir: string;
  snapshotFile: string;
  previous: PreviousRelease | undefined;
  diff: SnapshotDiff;
  newFacts: SnapshotFacts;
  fingerprint: string;
  forceFull?: boolean;
  log: (msg: string) => void;
  /** The entry point's environment, for the `astro build` child (src/ops/site-build.ts). */
  baseEnv: NodeJS.ProcessEnv;
  /** The public URLs the pages are rendered with (the plan compares page data). */
  urls: PublicUrls;
}

export interface RenderResult {
  mode: 'full' | 'incremental';
  renderedPaths: number;
  copiedPaths: number;
  ms: number;
  plan?: RenderPlan['counts'];
  manifest: Record<string, string[]>;
  /** the `astro build` child's peak RSS */
  childPeakRssMb: number;
}

/** Past this share of changed providers a full render is simpler and about as fast. */
const INCREMENTAL_MAX_SHARE = 0.25;

export function incrementalBlocker(input: RenderInput): string | undefined {
  const { previous, diff } = input;
  if (input.forceFull) return '--full was given';
  if (!previous) return 'no previous release to copy from';
  if (previous.fingerprint !== input.fingerprint) return 'the site code or settings changed since the previous release';
  if (Object.keys(previous.manifest).length === 0) return 'the previous release has no page manifest';
  if (diff.categoriesChanged) return 'the categories changed (every page shows them)';
  if (diff.reportsChanged) return 'the reports changed';
  if (touchedProviders(diff).length > INCREMENTAL_MAX_SHARE * Math.max(1, input.newFacts.providers.size)) {
    return 'more than a quarter of the providers changed';
  }
  return undefined;
}

export async function renderRelease(input: RenderInput): Promise<RenderResult> {
  const started = performance.now();
  const blocker = incrementalBlocker(input);
  if (blocker) {
    input.log(`rendering the whole site (${blocker}) ...`);
    return { ...(await renderFull(input)), ms: performance.now() - started };
  }
  const result = await renderIncremental(input, input.previous!);
  if (result) return { ...result, ms: performance.now() - started };
  input.log('the site did not record its page manifest; rendering the whole site ...');
  return { ...(await renderFull(input)), ms: performance.now() - started };
}

async function renderFull(input: RenderInput): Promise<Omit<RenderResult, 'ms'>> {
  const out = path.join(input.dir, 'out');
  const manifestDir = path.join(input.dir, 'manifest');
  const childPeakRssMb = await runAstroBuild({ snapshotFile: input.snapshotFile, outDir: out, manifestDir, logFile: path.join(input.dir, 'build.log'), baseEnv: input.baseEnv });
  const manifest = readManifestDir(manifestDir);
  fs.renameSync(path.join(out, 'client'), path.join(input.dir, 'client'));
  moveServer(out, input.dir);
  const rendered = listFiles(path.join(input.dir, 'client')).length;
  return { mode: 'full', renderedPaths: rendered, copiedPaths: 0, manifest, childPeakRssMb };
}

async function renderIncremental(input: RenderInput, previous: PreviousRelease): Promise<Omit<RenderResult, 'ms'> | undefined> {
  const t0 = performance.now();
  const plan = planIncremental(previous.snapshotFile, input.snapshotFile, input.diff, input.newFacts, previous.manifest, input.urls);
  input.log(
    `incremental render: ${plan.counts.providers} changed providers, ${plan.counts.dependentProviders} dependent provider pages, ` +
      `${plan.counts.categories} category and ${plan.counts.landings} landing pages, plus sitemaps (planned in ${seconds(t0)})`,
  );
  const scopeFile = path.join(input.dir, 'render-scope.json');
  fs.writeFileSync(scopeFile, JSON.stringify(plan.scope));
  const out = path.join(input.dir, 'out');
  const manifestDir = path.join(input.dir, 'manifest');
  const t1 = performance.now();
  const childPeakRssMb = await runAstroBuild({ snapshotFile: input.snapshotFile, outDir: out, manifestDir, scopeFile, logFile: path.join(input.dir, 'build.log'), baseEnv: input.baseEnv });
  input.log(`astro build of the planned pages: ${seconds(t1)}`);
  const manifest = readManifestDir(manifestDir);
  if (Object.keys(manifest).length === 0) {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(manifestDir, { recursive: true, force: true });
    return undefined;
  }
  const t2 = performance.now();
  const client = path.join(input.dir, 'client');
  linkTree(previous.client, client);
  // Pages of the previous release that the new data no longer has.
  const now = new Set(Object.values(manifest).flat());
  for (const paths of Object.values(previous.manifest)) for (const p of paths) if (!now.has(p)) removeUrlPath(client, p);
  const rendered = overlayTree(path.join(out, 'client'), client);
  moveServer(out, input.dir);
  input.log(`copied the unchanged files from the previous release: ${seconds(t2)}`);
  return { mode: 'incremental', renderedPaths: rendered.length, copiedPaths: listFiles(client).length - rendered.length, plan: plan.counts, manifest, childPeakRssMb };
}

function moveServer(out: string, dir: string): void {
  const server = path.join(out, 'server');
  if (fs.existsSync(server)) fs.renameSync(server, path.join(dir, 'server'));
  fs.rmSync(out, { recursive: true, force: true });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
