/**
 * Worker thread body of the kept page renderer (page-renderer.ts): renders the
 * pages of one release's render scope through the prerender bundle a full build
 * kept (src/site/kept-bundle.ts), the way `astro build` renders them, without
 * bundling. A thread of its own because the bundle keeps per-process state (the
 * route cache of getStaticPaths, the app context with its snapshot): each render
 * gets fresh modules and its release's settings.
 *
 * It is the edge of that render: it parses the settings the `astro build` child
 * would get (the entry point's environment with the release's DIRECTORY_DB, scope
 * and manifest folder) and installs the app context the pages read, with the
 * release's site aggregates handed to its snapshot (src/query/site-aggregates.ts), then asks
 * the bundle's app for the scoped static paths (each route's getStaticPaths records
 * its full list in the manifest folder, src/site/render-scope.ts), renders each to
 * the file name Astro gives it (format 'file'), and writes the VIC cards in scope
 * with the build's own writer (src/site/vic-cards-task.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { StaticPaths } from 'astro/runtime/prerender/static-paths.js';
import { loadEnv } from '../env.ts';
import { createLogger } from '../server/logging.ts';
import { createAppContext, installAppContext } from '../server/context.ts';
import { seedSiteAggregates, type SiteAggregates } from '../query/site-aggregates.ts';
import { staticSnapshot } from '../site/snapshot.ts';
import { KEPT_HEAD_FILE, type KeptHead } from '../site/kept-bundle.ts';
import { writeVicCardsInline } from '../site/vic-cards-task.ts';
import { outFileOf, type RenderedRoute } from './page-files.ts';
import { collectorEvery } from './collect-garbage.ts';

/** A sitemap file or a category page leaves megabytes of garbage that V8 would keep long after. */
const collectAfterPage = collectorEvery(128);

export interface PageRenderWorkerInput {
  bundleDir: string;
  outDir: string;
  aggregatesFile: string;
  /** the entry point's environment with DIRECTORY_DB, RENDER_SCOPE_FILE and RENDER_MANIFEST_DIR of this release */
  env: NodeJS.ProcessEnv;
}

export interface PageRenderWorkerDone {
  pages: number;
  cards: number;
  loadMs: number;
}

/** What the prerender entry exports (astro/entrypoints/prerender): Astro's BuildApp. */
interface KeptApp {
  manifest: unknown;
  logger: { options: { destination: unknown } };
  setInternals(internals: { pagesByKeys: Map<string, { styles: unknown[] }> }): void;
  setOptions(options: { settings: { scripts: unknown[] }; logger: { options: { destination: unknown } } }): void;
  render(request: Request, options: { routeData: RenderedRoute }): Promise<Response>;
}

const input = workerData as PageRenderWorkerInput;
const started = performance.now();
const env = loadEnv(input.env);
const head = JSON.parse(fs.readFileSync(path.join(input.bundleDir, KEPT_HEAD_FILE), 'utf8')) as KeptHead;
const context = installAppContext(createAppContext(env, { version: head.version, logger: createLogger(env.logLevel) }));
seedSiteAggregates(staticSnapshot(), JSON.parse(fs.readFileSync(input.aggregatesFile, 'utf8')) as SiteAggregates);
try {
  const { app } = (await import(pathToFileURL(path.join(input.bundleDir, head.entry)).href)) as { app: KeptApp };
  // The build's page data, as far as rendering reads it: each page's stylesheets. The site injects no scripts.
  app.setInternals({ pagesByKeys: new Map(Object.entries(head.styles).map(([key, styles]) => [key, { styles }])) });
  app.setOptions({ settings: { scripts: [] }, logger: { options: { destination: app.logger.options.destination } } });
  const loadMs = performance.now() - started;

  const all = (await new StaticPaths(app as never).getAll()) as { pathname: string; route: RenderedRoute }[];
  // As Astro's generate step: the first route to claim a path renders it.
  const seen = new Set<string>();
  let pages = 0;
  for (const { pathname, route } of all) {
    const key = pathname.replace(/\/$/, '') || '/';
    if (seen.has(key)) continue;
    seen.add(key);
    const file = outFileOf(pathname, route);
    const response = await app.render(new Request(new URL(file.requestPath, head.origin)), { routeData: route });
    if (response.status >= 300 && response.status < 400) throw new Error(`${pathname} answered a redirect; the kept renderer writes no redirect pages`);
    if (!response.body) continue;
    const body = Buffer.from(await response.arrayBuffer());
    const target = path.join(input.outDir, file.relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, body);
    pages++;
    collectAfterPage();
  }
  const { cards } = writeVicCardsInline(input.outDir);
  parentPort!.postMessage({ pages, cards, loadMs } satisfies PageRenderWorkerDone);
} finally {
  await context.close();
}
