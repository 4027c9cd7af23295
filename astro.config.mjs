// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import directorySite from './src/site/astro-integration.ts';

// Pages are pre-rendered from the snapshot at build time; only routes that set
// `prerender = false` (the API, /search, /compare) run on the Node server.
// Middleware mode: scripts/serve.ts puts a lean router for /api and /mcp in front
// of Astro's handler (see docs/architecture.md).
export default defineConfig({
  site: process.env.PUBLIC_WEB_URL ?? 'http://localhost:4321',
  output: 'static',
  // npm run rebuild renders each release into its own folder (src/ops/site-build.ts).
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  trailingSlash: 'never',
  // inlineStylesheets 'never': one cached stylesheet instead of a copy in each of ~200k pages.
  build: { format: 'file', concurrency: 8, inlineStylesheets: 'never' },
  integrations: [directorySite()],
  adapter: node({ mode: 'middleware' }),
  devToolbar: { enabled: false },
});
