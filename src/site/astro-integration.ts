/**
 * Build hooks of the site: a loud warning when PUBLIC_WEB_URL is still the
 * localhost default; the VIC cards (src/site/vic-files.ts: plain files written
 * from the snapshot instead of 100k endpoint renders) on a worker thread while
 * Astro bundles and renders the pages (the second core); and the static-hosting
 * header rules written next to the pages (dist/client/_headers) from
 * src/site/static-headers.ts, with this build's security settings. It also
 * keeps the pages' bundle in server/kept-pages/ (kept-bundle.ts), so a small
 * publish renders its pages without a build (src/ops/page-renderer.ts).
 *
 * It is also the site's edge: astro.config.mjs parses the settings once and hands
 * them here, and the integration installs the app context (src/server/context.ts)
 * that the pages read, for `astro build` and for `astro dev` (which also serves
 * the API and watches the snapshot).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Env } from '../env.ts';
import { createLogger } from '../server/logging.ts';
import { createAppContext, installAppContext } from '../server/context.ts';
import { isLocalWebUrl, localhostWarning } from './settings.ts';
import { renderHeadersFile } from './header-files.ts';
import { staticHeaders } from './static-headers.ts';
import { keepPrerenderBundle, type KeptStyle } from './kept-bundle.ts';
import { startVicCardsWorker, writeVicCardsInline, type VicCardsDone } from './vic-cards-task.ts';

export default function directorySite(env: Env, version: string): AstroIntegration {
  const app = installAppContext(createAppContext(env, { version, logger: createLogger(env.logLevel) }));
  let clientDir: string | undefined;
  let serverDir: string | undefined;
  let origin = '';
  let pages: ReadonlyMap<string, { styles: KeptStyle[] }> = new Map();
  let root: URL | undefined;
  let vicCards: Promise<VicCardsDone> | undefined;
  return {
    name: 'directory-site',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
        serverDir = fileURLToPath(config.build.server);
        origin = new URL(config.site!).origin;
        root = config.root;
      },
      // `astro dev` serves the API and the server-rendered pages: a replaced DIRECTORY_DB is picked up.
      'astro:server:setup': () => {
        app.snapshots.watch();
      },
      'astro:build:start': ({ logger }) => {
        const webUrl = env.publicWebUrl;
        if (isLocalWebUrl(webUrl)) logger.warn(`\n${localhostWarning(webUrl)}`);
      },
      // Astro has emptied the output folder by now (it does so before bundling and
      // never again), so the cards can be written while it bundles and renders pages.
      'astro:build:setup': (setup) => {
        pages = setup.pages;
        vicCards ??= startVicCardsWorker(clientDir!, new URL('src/site/vic-worker.ts', root));
        vicCards.catch(() => {}); // awaited in astro:build:done; no unhandled rejection meanwhile
      },
      // Every page is written and Astro has not yet deleted its prerender bundle.
      'astro:build:generated': () => {
        keepPrerenderBundle(serverDir!, pages, origin, version);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = clientDir ?? fileURLToPath(dir);
        const done = vicCards ? await vicCards : writeVicCardsInline(out);
        logger.info(`wrote ${done.cards} VIC cards in ${done.seconds.toFixed(1)}s${vicCards ? ' (worker thread, beside the pages)' : ''}`);
        fs.writeFileSync(path.join(out, '_headers'), renderHeadersFile(staticHeaders(env.securityHeaders)));
        logger.info(`wrote ${path.join(out, '_headers')}`);
      },
    },
  };
}
