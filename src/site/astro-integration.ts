/**
 * Build hooks of the site: a loud warning when PUBLIC_WEB_URL is still the
 * localhost default; after the pages, the VIC cards (src/site/vic-files.ts:
 * plain files, written from one read of the snapshot instead of 100k endpoint
 * renders) and the static-hosting header rules (dist/client/_headers) from
 * src/site/static-headers.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { Snapshot } from '../query/snapshot.ts';
import { loadEnv } from '../env.ts';
import { isLocalWebUrl, localhostWarning, siteSettings } from './settings.ts';
import { renderHeadersFile } from './static-headers.ts';
import { writeVicCards } from './vic-files.ts';

export default function directorySite(): AstroIntegration {
  let clientDir: string | undefined;
  return {
    name: 'directory-site',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
      },
      'astro:build:start': ({ logger }) => {
        const webUrl = loadEnv().publicWebUrl;
        if (isLocalWebUrl(webUrl)) logger.warn(`\n${localhostWarning(webUrl)}`);
      },
      'astro:build:done': ({ dir, logger }) => {
        const out = clientDir ?? fileURLToPath(dir);
        const settings = siteSettings();
        const started = performance.now();
        const snapshot = new Snapshot(settings.directoryDb);
        try {
          const cards = writeVicCards(snapshot, out, { webUrl: settings.webUrl, apiUrl: settings.apiUrl });
          logger.info(`wrote ${cards} VIC cards in ${((performance.now() - started) / 1000).toFixed(1)}s`);
        } finally {
          snapshot.close();
        }
        fs.writeFileSync(path.join(out, '_headers'), renderHeadersFile());
        logger.info(`wrote ${path.join(out, '_headers')}`);
      },
    },
  };
}
