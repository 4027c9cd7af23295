/**
 * Docs are tested (STYLE.md habit 13): every route the server dispatches appears in
 * the OpenAPI document and in the README's API table.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/server/routes.ts';
import { buildOpenApiDocument } from '../../src/server/openapi.ts';
import { REST_ROUTES } from '../../src/server/rest/index.ts';

const readme = fs.readFileSync('README.md', 'utf8');
const doc = buildOpenApiDocument(REST_ROUTES, 'http://127.0.0.1');

describe('documentation covers every route', () => {
  it('has routes to check', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(10);
  });
  for (const route of ROUTES) {
    it(`${route.path} is in openapi.json and in the README API table`, () => {
      if (route.path !== '/healthz') expect(Object.keys(doc.paths)).toContain(route.path);
      for (const method of route.methods) {
        expect(readme).toMatch(new RegExp(`\\| ${method} \\| \`${route.path.replace(/[{}]/g, '\\$&')}\``));
      }
    });
  }
});
