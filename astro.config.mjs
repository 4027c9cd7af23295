// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Pages are pre-rendered from the snapshot at build time; only routes that set
// `prerender = false` (the API, /search, /compare) run on the Node server.
// Middleware mode: scripts/serve.ts puts a lean router for /api and /mcp in front
// of Astro's handler (see docs/architecture.md).
export default defineConfig({
  site: process.env.PUBLIC_WEB_URL ?? 'http://localhost:4321',
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', concurrency: 2 },
  adapter: node({ mode: 'middleware' }),
  devToolbar: { enabled: false },
});
