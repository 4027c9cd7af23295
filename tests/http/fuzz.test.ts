/**
 * Hostile input on every public endpoint: at least 2,000 strings per endpoint
 * in-process through handleRequest (STYLE.md habit 8), and a sample over HTTP
 * against scripts/serve.ts. No 5xx; every error in the envelope; every valid search
 * (2-200 code points after trimming) answers 200 with published providers only.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRequest } from '../../src/server/app.ts';
import type { AppContext } from '../../src/server/context.ts';
import { testAppContext } from '../support/app-context.ts';
import { buildFixture, isPublished, startServer, type Fixture, type RunningServer } from './fixture.ts';
import { encodeHostile, hostileValues } from './hostile.ts';

const PER_ENDPOINT = 2000;
let fixture: Fixture;
let published: Set<string>;
let app: AppContext;

beforeAll(async () => {
  fixture = await buildFixture();
  published = new Set(fixture.providers.filter(isPublished).map((p) => p.slug));
  app = testAppContext({ DIRECTORY_DB: fixture.dbFile });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(fixture.dir, { recursive: true, force: true });
});

const ENDPOINTS: [string, (v: string) => string][] = [
  ['search q', (v) => `/api/v1/search?q=${v}`],
  ['search filters', (v) => `/api/v1/search?q=toko&city=${v}&categorySlug=${v}&minRating=${v}&limit=${v}&page=${v}&sort=${v}`],
  ['providers q', (v) => `/api/v1/providers?q=${v}`],
  ['providers filters', (v) => `/api/v1/providers?location=${v}&industry=${v}&capabilityTag=${v}&businessSize=${v}&hourlyRateMin=${v}&projectBudget=${v}&minTrustLevel=${v}&country=${v}`],
  ['provider detail', (v) => `/api/v1/providers/${v}`],
  ['programmatic', (v) => `/api/v1/discovery/programmatic?categorySlug=${v}&citySlug=${v}&city=${v}&page=${v}`],
  ['programmatic-params', (v) => `/api/v1/discovery/programmatic-params?limit=${v}`],
  ['compare', (v) => `/api/v1/discovery/compare?slugA=${v}&slugB=hostile-name-co`],
  ['report', (v) => `/api/v1/reports/${v}`],
];

function codePointsAfterTrim(text: string): number {
  return [...text.trim()].length;
}

async function check(status: number, bodyText: string, url: string): Promise<void> {
  url = url.slice(0, 300);
  expect(status, url).toBeLessThan(500);
  let body;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new Error(`not JSON (${status}) for ${url}: ${bodyText.slice(0, 80)}`, { cause: status });
  }
  if (status >= 400) {
    expect(Object.keys(body), url).toEqual(['error']);
    expect(typeof body.error.code).toBe('string');
    expect(body.error.details).toBeNull();
    return;
  }
  const items = Array.isArray(body.data) ? body.data : body.data && 'slug' in body.data ? [body.data] : [];
  for (const item of items) if (item.companyName !== undefined) expect(published.has(item.slug), url).toBe(true);
}

describe('hostile input, in-process', () => {
  ENDPOINTS.forEach(([name, build], e) => {
    it(`${name}: ${PER_ENDPOINT} hostile values, no 5xx, envelope on errors`, async () => {
      for (const value of hostileValues(PER_ENDPOINT, 1000 + e)) {
        const url = 'http://api.test' + build(encodeHostile(value));
        const res = (await handleRequest(new Request(url), app))!;
        await check(res.status, await res.text(), url);
        if (name === 'search q' && value.raw === '') {
          const n = codePointsAfterTrim(value.text);
          if (n >= 2) expect(res.status, url).toBe(200);
        }
      }
    });
  });
});

describe('hostile input, over HTTP (sample)', () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer(fixture.dbFile)));
  afterAll(async () => server?.stop());

  it('a sample of hostile values on every endpoint: no 5xx, envelope on errors', async () => {
    for (const [e, [, build]] of ENDPOINTS.entries()) {
      for (const value of hostileValues(40, 5000 + e)) {
        const url = server.url + build(encodeHostile(value));
        const res = await fetch(url);
        await check(res.status, await res.text(), url);
      }
    }
  });
});
