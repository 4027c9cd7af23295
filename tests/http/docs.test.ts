/**
 * Docs are tested: every route the server dispatches appears in the OpenAPI document
 * and in the route table of docs/api.md, and every limit setting in docs/settings.md
 * and in docs/operations.md, "Limits and abuse".
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/server/routes.ts';
import { buildOpenApiDocument } from '../../src/server/openapi.ts';
import { REST_ROUTES } from '../../src/server/rest/index.ts';
import { loadEnv } from '../../src/env.ts';

const apiGuide = fs.readFileSync('docs/api.md', 'utf8');
const settingsPage = fs.readFileSync('docs/settings.md', 'utf8');
/** Settings env.ts reads: a bad value of each is refused by name. */
const loadEnvKeys = ['PUBLIC_RATE_LIMIT_PER_MINUTE', 'TRUST_PROXY', 'SEARCH_MAX_IN_FLIGHT', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 'API_RESPONSE_CACHE_MB'].filter((name) => {
  try {
    loadEnv({ [name]: 'not-a-number' });
    return false;
  } catch (err) {
    return (err as Error).message.includes(name);
  }
});
const doc = buildOpenApiDocument(REST_ROUTES, 'http://127.0.0.1');

describe('documentation covers every route', () => {
  it('has routes to check', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(10);
  });
  for (const route of ROUTES) {
    it(`${route.path} is in openapi.json and in the route table of docs/api.md`, () => {
      if (route.path !== '/healthz') expect(Object.keys(doc.paths)).toContain(route.path);
      for (const method of route.methods) {
        expect(apiGuide).toMatch(new RegExp(`\\| ${method} \\| \`${route.path.replace(/[{}]/g, '\\$&')}\``));
      }
    });
  }
});

describe('documentation covers every limit setting', () => {
  const operations = fs.readFileSync('docs/operations.md', 'utf8');
  const limits = operations.slice(operations.indexOf('## Limits and abuse'));
  const settings = ['PUBLIC_RATE_LIMIT_PER_MINUTE', 'TRUST_PROXY', 'SEARCH_MAX_IN_FLIGHT', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 'API_RESPONSE_CACHE_MB'];
  for (const name of settings) {
    it(`${name} is in the table of docs/settings.md and in docs/operations.md, "Limits and abuse"`, () => {
      expect(settingsPage).toMatch(new RegExp(`\\| \`${name}\``));
      expect(limits).toContain(`\`${name}\``);
      expect(loadEnvKeys).toContain(name);
    });
  }
});
