/**
 * Renders a release's site: a full `astro build`, or an incremental render of
 * only the planned paths (render-plan.ts) through the page bundle the previous
 * release kept (page-renderer.ts: no bundling), whose files that differ from the
 * previous release's are kept in the release's changed/ folder; every other file
 * is taken from the previous release (hard links), and pages that no longer exist
 * are deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SnapshotDiff, SnapshotFacts } from './diff.ts';
import { touchedProviders } from './diff.ts';
import { planIncremental, type RenderPlan } from './render-plan.ts';
import type { PublicUrls } from '../web/urls.ts';
import { readManifestDir, runAstroBuild } from './site-build.ts';
import { keptBundleDir, renderKeptPages } from './page-renderer.ts';
import { linkTree, listFiles, overlayTree, removeUrlPath, sameFile } from './tree.ts';

export interface PreviousRelease {
  client: string;
  /** its server/ folder: the server bundle and the kept page bundle (src/site/kept-bundle.ts) */
  server: string;
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
  /** incremental renders: what changed against the previous release */
  changes?: RenderedChanges;
}

/** The release folder's subfolder of an incremental render's changed files. */
export const CHANGED_DIR = 'changed';

export interface RenderedChanges {
  /** a folder holding exactly the rendered files whose bytes differ from the previous release (new or changed), by their path under client/ */
  dir: string;
  /** those files' paths under client/, sorted */
  files: string[];
  /** URL paths of the previous release that the new data no longer has (page manifest comparison), sorted */
  removedPaths: string[];
}

/** Past this share of changed providers a full render is simpler and about as fast. */
const INCREMENTAL_MAX_SHARE = 0.25;

export function incrementalBlocker(input: RenderInput): string | undefined {
  const { previous, diff } = input;
  if (input.forceFull) return '--full was given';
  if (!previous) return 'no previous release to copy from';
  if (previous.fingerprint !== input.fingerprint) return 'the site code or settings changed since the previous release';
  if (!keptBundleDir(previous.server)) return 'the previous release kept no page bundle';
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
  await runAstroBuild({ snapshotFile: input.snapshotFile, outDir: out, manifestDir, logFile: path.join(input.dir, 'build.log'), baseEnv: input.baseEnv });
  const manifest = readManifestDir(manifestDir);
  fs.renameSync(path.join(out, 'client'), path.join(input.dir, 'client'));
  moveServer(out, input.dir);
  const rendered = listFiles(path.join(input.dir, 'client')).length;
  return { mode: 'full', renderedPaths: rendered, copiedPaths: 0, manifest };
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
  const manifestDir = path.join(input.dir, 'manifest');
  const changedDir = path.join(input.dir, CHANGED_DIR);
  const t1 = performance.now();
  const done = await renderKeptPages({ serverDir: previous.server, snapshotFile: input.snapshotFile, scopeFile, manifestDir, outDir: changedDir, baseEnv: input.baseEnv });
  input.log(`rendered ${done.pages} pages and ${done.cards} VIC cards with the kept bundle: ${seconds(t1)} (bundle loaded in ${(done.loadMs / 1000).toFixed(1)}s)`);
  const manifest = readManifestDir(manifestDir);
  if (Object.keys(manifest).length === 0) {
    fs.rmSync(changedDir, { recursive: true, force: true });
    fs.rmSync(manifestDir, { recursive: true, force: true });
    return undefined;
  }
  const files = keepChangedFiles(changedDir, previous.client);
  const now = new Set(Object.values(manifest).flat());
  const removedPaths = Object.values(previous.manifest)
    .flat()
    .filter((p) => !now.has(p))
    .sort();

  // The release's tree: the previous release's files (hard links), less the pages
  // that no longer exist, with the changed files over them.
  const t2 = performance.now();
  const client = path.join(input.dir, 'client');
  linkTree(previous.client, client);
  for (const p of removedPaths) removeUrlPath(client, p);
  overlayTree(changedDir, client);
  linkTree(previous.server, path.join(input.dir, 'server'));
  input.log(`copied the unchanged files from the previous release: ${seconds(t2)}`);
  const renderedPaths = done.pages + done.cards;
  return {
    mode: 'incremental',
    renderedPaths,
    copiedPaths: listFiles(client).length - renderedPaths,
    plan: plan.counts,
    manifest,
    changes: { dir: changedDir, files, removedPaths },
  };
}

/**
 * Keeps in `dir` only the rendered files whose bytes differ from the previous
 * release's (new or changed); returns their paths. A page in the plan often
 * renders to the same bytes (a landing page whose list did not move).
 */
function keepChangedFiles(dir: string, previousClient: string): string[] {
  const changed: string[] = [];
  for (const rel of listFiles(dir)) {
    const before = path.join(previousClient, rel);
    if (!fs.existsSync(before) || !sameFile(before, path.join(dir, rel))) changed.push(rel);
    else removeFileAndEmptyFolders(dir, rel);
  }
  return changed;
}

function removeFileAndEmptyFolders(root: string, rel: string): void {
  fs.rmSync(path.join(root, rel));
  for (let d = path.dirname(path.join(root, rel)); d.startsWith(root + path.sep); d = path.dirname(d)) {
    if (fs.readdirSync(d).length > 0) break;
    fs.rmdirSync(d);
  }
}

function moveServer(out: string, dir: string): void {
  const server = path.join(out, 'server');
  if (fs.existsSync(server)) fs.renameSync(server, path.join(dir, 'server'));
  fs.rmSync(out, { recursive: true, force: true });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
