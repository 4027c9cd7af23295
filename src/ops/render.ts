/**
 * Renders a release's site: a full `astro build` (client/, the base of the
 * releases after it, and the page bundle it keeps in server/), or an incremental
 * render of only the planned paths (render-plan.ts) through the page bundle the
 * previous release kept (page-renderer.ts: no bundling). The rendered files whose
 * bytes differ from the previous site's are layered over it (site-layers.ts): in
 * the overlay, pages that no longer exist in gone/, every other file the base's.
 * Each release keeps its site aggregates (site-aggregates.json: the landing groups
 * and the taxonomy dates, src/query/site-aggregates.ts): a full render computes
 * them, an incremental one updates the previous release's where its change is.
 * Every render records each route's paths in the release's manifest/ (page-manifest.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SnapshotDiff } from './diff.ts';
import { touchedProviders } from './diff.ts';
import { PLANNED_ROUTES, planIncremental, type RenderPlan } from './render-plan.ts';
import { runAstroBuild } from './site-build.ts';
import { MANIFEST_DIR, manifestRoutes, removedPaths, routePaths } from './page-manifest.ts';
import { keptBundleDir, renderKeptPages } from './page-renderer.ts';
import { linkTree, listFiles, removeFile, sameFile } from './tree.ts';
import { collectGarbage } from './collect-garbage.ts';
import { fileInSite, siteLayers } from '../server/site-folder.ts';
import { Snapshot } from '../query/snapshot.ts';
import { siteAggregates, updatedSiteAggregates, type SiteAggregates } from '../query/site-aggregates.ts';
import { ONE_PASS_GROUPS } from '../query/site-landing-lists.ts';
import { baseReleaseOf, compactSite, COMPACT_SHARE, layerSite, needsNewBase, makeFullSite, siteFiles, siteOf, type SiteCounts } from './site-layers.ts';

export interface PreviousRelease {
  /** its release folder (site/ is what it serves) */
  dir: string;
  /** its server/ folder: the server bundle and the kept page bundle (src/site/kept-bundle.ts) */
  server: string;
  snapshotFile: string;
  fingerprint: string;
  /** what its release.json records of its site (absent before layered sites) */
  site: SiteCounts | undefined;
}

export interface RenderInput {
  /** The release folder being built: site/ (and client/ after a full render), server/ and manifest/ go here. */
  dir: string;
  snapshotFile: string;
  previous: PreviousRelease | undefined;
  diff: SnapshotDiff;
  fingerprint: string;
  forceFull?: boolean;
  log: (msg: string) => void;
  /** The entry point's environment, for the `astro build` child (src/ops/site-build.ts). */
  baseEnv: NodeJS.ProcessEnv;
  /** SITEMAP_MAX_URLS: the plan finds the sitemap files a change is in. */
  sitemapMaxUrls: number;
}

export interface RenderResult {
  mode: 'full' | 'incremental';
  renderedPaths: number;
  copiedPaths: number;
  ms: number;
  plan?: RenderPlan['counts'];
  /** the site's layers; `base` undefined: this release's own client/ */
  site: Omit<SiteCounts, 'base'> & { base: string | undefined };
  /** the files the render wrote, and those of the previous site this one no longer has (changed-urls.ts) */
  rendered: string[];
  removed: string[];
  /** a full render: the `astro build` child's peak RSS (an incremental one renders on a thread of this process) */
  childPeakRssMb?: number;
}

/** In a release folder: its site aggregates. */
export const SITE_AGGREGATES_FILE = 'site-aggregates.json';

function writeSiteAggregates(dir: string, aggregates: SiteAggregates): string {
  const file = path.join(dir, SITE_AGGREGATES_FILE);
  fs.writeFileSync(file, JSON.stringify(aggregates));
  return file;
}

/** Runs `use` with the snapshot file open, closed after. */
function withSnapshot<T>(file: string, use: (snapshot: Snapshot) => T): T {
  const snapshot = new Snapshot(file);
  try {
    return use(snapshot);
  } finally {
    snapshot.close();
  }
}

/** Past this share of changed providers a full render is simpler and about as fast. */
const INCREMENTAL_MAX_SHARE = 0.25;

export function incrementalBlocker(input: RenderInput): string | undefined {
  const { previous, diff } = input;
  if (input.forceFull) return '--full was given';
  if (!previous) return 'no previous release to copy from';
  if (previous.fingerprint !== input.fingerprint) return 'the site code or settings changed since the previous release';
  if (!keptBundleDir(previous.server)) return 'the previous release kept no page bundle';
  if (manifestRoutes(path.join(previous.dir, MANIFEST_DIR)).length === 0) return 'the previous release has no page manifest';
  if (!previous.site) return 'the previous release was stored before layered sites';
  if (!fs.existsSync(path.join(previous.dir, SITE_AGGREGATES_FILE))) return 'the previous release kept no site aggregates';
  if (diff.categoriesChanged) return 'the categories changed (every page shows them)';
  if (diff.reportsChanged) return 'the reports changed';
  if (touchedProviders(diff).length > INCREMENTAL_MAX_SHARE * Math.max(1, diff.published)) {
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
  const manifestDir = path.join(input.dir, MANIFEST_DIR);
  const childPeakRssMb = await runAstroBuild({ snapshotFile: input.snapshotFile, outDir: out, manifestDir, logFile: path.join(input.dir, 'build.log'), baseEnv: input.baseEnv });
  fs.renameSync(path.join(out, 'client'), path.join(input.dir, 'client'));
  moveServer(out, input.dir);
  withSnapshot(input.snapshotFile, (snapshot) => writeSiteAggregates(input.dir, siteAggregates(snapshot)));
  makeFullSite(input.dir);
  const rendered = listFiles(path.join(input.dir, 'client'));
  const now = new Set(rendered);
  const removed = input.previous ? siteFiles(siteOf(input.previous.dir)).map((f) => f.rel).filter((rel) => !now.has(rel)) : [];
  const site = { base: undefined, baseFiles: rendered.length, overlayFiles: 0, goneFiles: 0 };
  return { mode: 'full', renderedPaths: rendered.length, copiedPaths: 0, site, rendered, removed, childPeakRssMb };
}

async function renderIncremental(input: RenderInput, previous: PreviousRelease): Promise<Omit<RenderResult, 'ms'> | undefined> {
  const t0 = performance.now();
  const before = JSON.parse(fs.readFileSync(path.join(previous.dir, SITE_AGGREGATES_FILE), 'utf8')) as SiteAggregates;
  const previousManifest = path.join(previous.dir, MANIFEST_DIR);
  // One open snapshot for the plan and the aggregates: what the plan reads (the landing lists, the
  // landing groups) the aggregates of a large change read again.
  const { plan, aggregatesFile } = withSnapshot(previous.snapshotFile, (old) =>
    withSnapshot(input.snapshotFile, (snapshot) => {
      const plan = planIncremental({ old, new: snapshot }, input.diff, unplannedRoutes(previousManifest), input.sitemapMaxUrls);
      // Past as many groups as one pass beats (the landing lists' threshold), computed whole.
      const aggregates = plan.touched.groups.length > ONE_PASS_GROUPS ? siteAggregates(snapshot) : updatedSiteAggregates(snapshot, before, plan.touched);
      return { plan, aggregatesFile: writeSiteAggregates(input.dir, aggregates) };
    }),
  );
  input.log(
    `incremental render: ${plan.counts.providers} changed providers, ${plan.counts.dependentProviders} dependent provider pages, ` +
      `${plan.counts.categories} category and ${plan.counts.landings} landing pages, ${plan.counts.sitemapParts} provider and VIC sitemap files of each kind (planned with the site aggregates in ${seconds(t0)})`,
  );
  const scopeFile = path.join(input.dir, 'render-scope.json');
  fs.writeFileSync(scopeFile, JSON.stringify(plan.scope));
  const manifestDir = path.join(input.dir, MANIFEST_DIR);
  const renderedDir = path.join(input.dir, 'rendered');
  const t1 = performance.now();
  // This thread waits while the render thread runs: the plan's garbage would be resident beside it.
  collectGarbage();
  const done = await renderKeptPages({ serverDir: previous.server, snapshotFile: input.snapshotFile, scopeFile, aggregatesFile, manifestDir, outDir: renderedDir, baseEnv: input.baseEnv });
  input.log(`rendered ${done.pages} pages and ${done.cards} VIC cards with the kept bundle: ${seconds(t1)} (bundle loaded in ${(done.loadMs / 1000).toFixed(1)}s)`);
  if (manifestRoutes(manifestDir).length === 0) {
    fs.rmSync(renderedDir, { recursive: true, force: true });
    fs.rmSync(manifestDir, { recursive: true, force: true });
    fs.rmSync(aggregatesFile);
    return undefined;
  }
  const t2 = performance.now();
  const renderedPaths = listFiles(renderedDir).length;
  dropUnchangedFiles(renderedDir, previous.dir);
  // Pages of the previous release that the new data no longer has.
  const removedUrlPaths = removedPaths(previousManifest, manifestDir);
  const base = baseReleaseOf(previous.dir)!;
  const { baseFiles } = previous.site!;
  const layered = layerSite({ dir: input.dir, previousDir: previous.dir, base, baseFiles, renderedDir, removedUrlPaths });
  fs.rmSync(renderedDir, { recursive: true, force: true });
  linkTree(previous.server, path.join(input.dir, 'server'));
  input.log(`layered ${layered.rendered.length} changed files over the previous release (overlay ${layered.overlayFiles} files, ${layered.goneFiles} gone, base ${base}): ${seconds(t2)}`);
  const result = { mode: 'incremental' as const, renderedPaths, copiedPaths: layered.files - renderedPaths, plan: plan.counts, rendered: layered.rendered, removed: layered.removed };
  if (!needsNewBase(layered.overlayFiles, baseFiles)) {
    return { ...result, site: { base, baseFiles, overlayFiles: layered.overlayFiles, goneFiles: layered.goneFiles } };
  }
  const t3 = performance.now();
  const files = compactSite(input.dir);
  input.log(`the overlay passed ${COMPACT_SHARE * 100}% of the base: wrote the site out whole as a new base (${files} files): ${seconds(t3)}`);
  return { ...result, site: { base: undefined, baseFiles: files, overlayFiles: 0, goneFiles: 0 } };
}

/**
 * Deletes from `dir` the rendered files whose bytes equal the previous site's:
 * a page in the plan often renders to the same bytes (a landing page whose list
 * did not move), and only real changes belong in the overlay and changed-urls.txt.
 */
function dropUnchangedFiles(dir: string, previousDir: string): void {
  const before = siteLayers(siteOf(previousDir));
  for (const rel of listFiles(dir)) {
    const old = fileInSite(before, rel);
    if (old && sameFile(old.file, path.join(dir, rel))) removeFile(dir, rel);
  }
}

/** The previous release's routes that the plan renders whole (few, with few paths), by route. */
function unplannedRoutes(manifestDir: string): Record<string, string[]> {
  const routes = manifestRoutes(manifestDir).filter((route) => !(PLANNED_ROUTES as readonly string[]).includes(route));
  return Object.fromEntries(routes.map((route) => [route, routePaths(manifestDir, route)]));
}

function moveServer(out: string, dir: string): void {
  const server = path.join(out, 'server');
  if (fs.existsSync(server)) fs.renameSync(server, path.join(dir, 'server'));
  fs.rmSync(out, { recursive: true, force: true });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
