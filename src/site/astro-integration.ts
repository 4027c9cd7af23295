/**
 * Build hooks of the site: a loud warning when PUBLIC_WEB_URL is still the
 * localhost default, and the static-hosting header rules written next to the
 * pages (dist/client/_headers) from src/site/static-headers.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { loadEnv } from '../env.ts';
import { isLocalWebUrl, localhostWarning } from './settings.ts';
import { renderHeadersFile } from './static-headers.ts';

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
        fs.writeFileSync(path.join(out, '_headers'), renderHeadersFile());
        logger.info(`wrote ${path.join(out, '_headers')}`);
      },
    },
  };
}
