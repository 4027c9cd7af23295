// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import fs from 'node:fs';
import { loadEnv } from './src/env.ts';
import directorySite from './src/site/astro-integration.ts';

// The site's edge: the settings are parsed here, once (src/env.ts), and handed to the integration.
const env = loadEnv();
const { version } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// Pages are pre-rendered from the snapshot at build time; only routes that set
// `prerender = false` (the API, /search, /compare) run on the Node server.
// Middleware mode: scripts/serve.ts puts a lean router for /api and /mcp in front
// of Astro's handler (see docs/architecture.md).
export default defineConfig({
  site: env.publicWebUrl,
  output: 'static',
  // npm run rebuild renders each release into its own folder (src/ops/site-build.ts).
  outDir: env.distDir,
  trailingSlash: 'never',
  // inlineStylesheets 'never': one cached stylesheet instead of a copy in each of ~200k pages.
  build: { format: 'file', concurrency: 8, inlineStylesheets: 'never' },
  integrations: [directorySite(env, version)],
  adapter: node({ mode: 'middleware' }),
  devToolbar: { enabled: false },
});
