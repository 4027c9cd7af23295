/**
 * The public REST API against the real server (scripts/serve.ts) over HTTP, over
 * a snapshot built by the real builder from a generated fixture plus hand-crafted
 * records. Every body is validated against the served openapi.json.
 */
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { ctx, initSlugSets } from './api-context.ts';
import { directoryCases } from './directory-cases.ts';
import { discoveryCases } from './discovery-cases.ts';
import { buildFixture, startServer } from './fixture.ts';
import { httpLayerCases } from './http-layer-cases.ts';
import { OpenApiValidator } from './openapi-validator.ts';
import { searchCases } from './search-cases.ts';

beforeAll(async () => {
  ctx.fixture = await buildFixture();
  initSlugSets(ctx.fixture);
  ctx.server = await startServer(ctx.fixture.dbFile);
  const doc = await (await fetch(ctx.server.url + '/api/v1/openapi.json')).json();
  ctx.validator = new OpenApiValidator(doc);
});

afterAll(async () => {
  await ctx.server?.stop();
  if (ctx.fixture) fs.rmSync(ctx.fixture.dir, { recursive: true, force: true });
});

directoryCases();
searchCases();
discoveryCases();
httpLayerCases();
