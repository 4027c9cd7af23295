/**
 * 10,000 hostile inputs per endpoint over HTTP against the real server: every
 * public REST route, the key-protected /api/ai/recommend and POST /mcp (with
 * hostile JSON-RPC bodies: broken JSON, wrong types, unknown tools, batches).
 * No answer is a 5xx; every 4xx carries the error envelope; /mcp answers
 * JSON-RPC; no answer holds a marker of unpublished or dashboard data
 * (an unpublished slug, `MODNOTE: `, `INTERNAL: `, the dashboard field names).
 * Keys rotate over a pool (pinned rate window) so the inputs reach parameter
 * checking instead of stopping at 429.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeyStore } from '../../src/keys/key-store.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { encodeHostile, hostileValues, type HostileValue } from '../http/hostile.ts';
import { readProviders } from '../ops/dataset-edits.ts';
import { generate, startNode, workspace, type Node } from '../resilience/fixture.ts';
import { recordFigures, sendAll, type Answer, type LoadRequest } from './fixture.ts';

const PER_ENDPOINT = 10_000;
const KEYS = 400; // 20,000 keyed requests at most 50 per key: under the enterprise budget of 120
const LEAK = /MODNOTE: |INTERNAL: |moderationNotes|internalStatus|moderation_notes|internal_status/;

let ws = '';
let node: Node;
let keys: string[] = [];
let unpublished = new Set<string>();

beforeAll(async () => {
  ws = workspace('faults-hostile');
  const data = await generate(path.join(ws, 'data'), 300, 17);
  unpublished = new Set(readProviders(data).filter((p) => p.submissionStatus !== 'approved' || p.publishedAt === null).map((p) => p.slug));
  const env = { DIRECTORY_DB: path.join(ws, 'directory.db'), KEYS_DB: path.join(ws, 'keys.db') };
  await buildSnapshot({ inputDir: data, outFile: env.DIRECTORY_DB });
  const store = new KeyStore(env.KEYS_DB);
  keys = Array.from({ length: KEYS }, (_, i) => store.create({ tier: 'enterprise', name: `hostile ${i}` }).key);
  store.close();
  node = await startNode({ ...env, LOG_LEVEL: 'warn', RATE_LIMIT_CLOCK_MS: String(Date.UTC(2026, 0, 1, 11, 0, 5)), ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs') });
});

afterAll(async () => {
  await node?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

const get = (p: string): LoadRequest => ({ path: p });
const REST: [string, (v: string) => string][] = [
  ['GET /api/v1/search (q)', (v) => `/api/v1/search?q=${v}`],
  ['GET /api/v1/search (filters)', (v) => `/api/v1/search?q=toko&city=${v}&categorySlug=${v}&minRating=${v}&limit=${v}&page=${v}&sort=${v}`],
  ['GET /api/v1/providers (q)', (v) => `/api/v1/providers?q=${v}`],
  ['GET /api/v1/providers (filters)', (v) => `/api/v1/providers?location=${v}&industry=${v}&capabilityTag=${v}&businessSize=${v}&hourlyRateMin=${v}&projectBudget=${v}&minTrustLevel=${v}&country=${v}`],
  ['GET /api/v1/providers/{slug}', (v) => `/api/v1/providers/${v}`],
  ['GET /api/v1/discovery/programmatic', (v) => `/api/v1/discovery/programmatic?categorySlug=${v}&citySlug=${v}&city=${v}&page=${v}`],
  ['GET /api/v1/discovery/programmatic-params', (v) => `/api/v1/discovery/programmatic-params?limit=${v}`],
  ['GET /api/v1/discovery/compare', (v) => `/api/v1/discovery/compare?slugA=${v}&slugB=${v}x`],
  ['GET /api/v1/reports/{slug}', (v) => `/api/v1/reports/${v}`],
];

let keyTurn = 0;
const nextKey = () => keys[keyTurn++ % keys.length]!;

/** A hostile JSON-RPC body built from one hostile value (ten shapes, in turn). */
function mcpBody(v: HostileValue, i: number): string {
  const text = v.text.toWellFormed();
  const call = (name: string, args: unknown) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });
  switch (i % 10) {
    case 0: return JSON.stringify(call('search_providers', { q: text, city: text.slice(0, 50) }));
    case 1: return JSON.stringify(call('get_provider_card', { slug: text }));
    case 2: return JSON.stringify(call('compare_providers', { slugA: text, slugB: `${text}x` }));
    case 3: return text; // not JSON (or JSON of the wrong shape)
    case 4: return JSON.stringify({ jsonrpc: '2.0', id: text, method: text, params: text });
    case 5: return JSON.stringify([call('search_providers', { q: text }), { jsonrpc: '2.0', method: text }, { id: i }]);
    case 6: return JSON.stringify(call(text, { q: [text], limit: text }));
    case 7: return JSON.stringify(call('search_providers', { q: text, limit: i, categorySlug: { $ne: null } }));
    case 8: return `[${JSON.stringify(call('get_provider_card', { slug: text }))},`;
    default: return JSON.stringify({ jsonrpc: '1.0', id: [i], method: 'tools/list', params: [text] });
  }
}

function requestsFor(endpoint: string, values: HostileValue[], i0: number): LoadRequest[] {
  if (endpoint === 'GET /api/ai/recommend') {
    // A hostile limit on every third request only: a bad limit is refused before q reaches the parser and the search.
    return values.map((v, i) => {
      const limit = i % 3 === 0 ? `&limit=${encodeHostile(v).slice(0, 20)}` : '';
      return { path: `/api/ai/recommend?q=${encodeHostile(v)}&city=${encodeHostile(v).slice(0, 300)}${limit}`, headers: { 'x-api-key': nextKey() } };
    });
  }
  if (endpoint === 'POST /mcp') {
    return values.map((v, i) => ({ path: '/mcp', method: 'POST', body: mcpBody(v, i0 + i), headers: { 'content-type': 'application/json', 'x-api-key': nextKey() } }));
  }
  const route = REST.find(([name]) => name === endpoint)![1];
  return values.map((v) => get(route(encodeHostile(v))));
}

interface Tally {
  sent: number;
  serverErrors: number;
  withoutEnvelope: number;
  leaks: number;
  byStatus: Record<number, number>;
  samples: string[];
}

function judge(a: Answer, t: Tally): void {
  t.byStatus[a.status] = (t.byStatus[a.status] ?? 0) + 1;
  const where = `${a.request.method ?? 'GET'} ${a.request.path.slice(0, 120)} -> ${a.status}: ${a.body.slice(0, 160)}`;
  const bad = (kind: 'serverErrors' | 'withoutEnvelope' | 'leaks') => {
    t[kind]++;
    if (t.samples.length < 5) t.samples.push(`${kind}: ${where}`);
  };
  if (a.status >= 500) bad('serverErrors');
  if (LEAK.test(a.body) || [...a.body.matchAll(/"slug":"([^"]*)"/g)].some((m) => unpublished.has(m[1]!))) bad('leaks');
  if (a.status >= 400) {
    let body: { error?: { code?: unknown; message?: unknown } } | undefined;
    try {
      body = JSON.parse(a.body);
    } catch {
      body = undefined;
    }
    const ok = body !== undefined && Object.keys(body).join() === 'error' && typeof body.error?.code === 'string' && typeof body.error?.message === 'string';
    if (!ok) bad('withoutEnvelope');
  } else if (a.request.path === '/mcp' && a.status === 200) {
    const body = JSON.parse(a.body) as unknown;
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0' && ('result' in (m as object) || 'error' in (m as object)))) bad('withoutEnvelope');
  }
}

it(`answers ${PER_ENDPOINT.toLocaleString('en')} hostile inputs per endpoint without a 5xx, a bare error or a leak`, async () => {
  const endpoints = [...REST.map(([name]) => name), 'GET /api/ai/recommend', 'POST /mcp'];
  const figures: Record<string, Tally> = {};
  let failures = 0;
  for (const [n, endpoint] of endpoints.entries()) {
    const values = hostileValues(PER_ENDPOINT, 1000 + n);
    const tally: Tally = { sent: PER_ENDPOINT, serverErrors: 0, withoutEnvelope: 0, leaks: 0, byStatus: {}, samples: [] };
    const load = await sendAll(node.url, 8, requestsFor(endpoint, values, n * PER_ENDPOINT), (a) => judge(a, tally));
    failures += load.failures;
    expect(load.failures, load.errorSamples.join('\n')).toBe(0);
    expect(load.answered).toBe(PER_ENDPOINT);
    figures[endpoint] = tally;
  }
  const summary = Object.fromEntries(
    Object.entries(figures).map(([name, t]) => [name, { sent: t.sent, serverErrors: t.serverErrors, withoutEnvelope: t.withoutEnvelope, leaks: t.leaks, byStatus: t.byStatus }]),
  );
  recordFigures('hostile inputs per endpoint', { perEndpoint: PER_ENDPOINT, endpoints: endpoints.length, failures, byEndpoint: summary });
  for (const [name, t] of Object.entries(figures)) {
    expect({ endpoint: name, serverErrors: t.serverErrors, withoutEnvelope: t.withoutEnvelope, leaks: t.leaks, samples: t.samples }).toEqual({
      endpoint: name,
      serverErrors: 0,
      withoutEnvelope: 0,
      leaks: 0,
      samples: [],
    });
  }
}, 400_000);
