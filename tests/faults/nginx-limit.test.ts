/**
 * docs/nginx-lb.conf as shipped (only addresses swapped for free ports) in front
 * of a real node, with a real nginx: unkeyed requests past the per-address rate
 * and burst get 429 with the API's envelope and Retry-After from nginx itself;
 * requests with a key are not counted there (the key's budget governs them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { createKey, generate, ROOT, startNginx, startNode, workspace, type Node, type Service } from '../resilience/fixture.ts';
import { recordFigures, sendAll, type LoadRequest } from './fixture.ts';

let ws = '';
let node: Node;
let nginx: Service;
let key = '';

beforeAll(async () => {
  ws = workspace('faults-nginx');
  const data = await generate(path.join(ws, 'data'), 80, 12);
  const env = { DIRECTORY_DB: path.join(ws, 'directory.db'), KEYS_DB: path.join(ws, 'keys.db') };
  await buildSnapshot({ inputDir: data, outFile: env.DIRECTORY_DB });
  key = createKey(env, 'enterprise');
  node = await startNode({ ...env, TRUST_PROXY: '1', PUBLIC_RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'warn', ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs') });
  const port = new URL(node.url).port;
  const conf = fs
    .readFileSync(path.join(ROOT, 'docs/nginx-lb.conf'), 'utf8')
    .replace('server 127.0.0.1:4321 ', `server 127.0.0.1:${port} `)
    .replace(/\n\s*server 127\.0\.0\.1:4322 [^\n]*/, '')
    .replace('listen 80;', 'listen __LISTEN__;');
  expect(conf).toMatch(/limit_req zone=directory_public burst=100 nodelay;/);
  fs.mkdirSync(path.join(ws, 'nginx'));
  nginx = await startNginx(path.join(ws, 'nginx'), conf, '/healthz');
});

afterAll(async () => {
  await nginx?.stop();
  await node?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('answers unkeyed requests past the rate and burst with 429 and the envelope, and leaves keyed requests to the key budget', async () => {
  const unkeyed: LoadRequest[] = Array.from({ length: 400 }, () => ({ path: '/api/v1/categories' }));
  const limited: string[] = [];
  const figures = await sendAll(nginx.url, 8, unkeyed, (a) => {
    if (a.status === 429) limited.push(a.body);
  });
  expect(figures.failures).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBeGreaterThanOrEqual(100); // the burst at least
  expect(limited.length).toBeGreaterThan(0);
  expect(JSON.parse(limited[0]!)).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) } });
  const r = await fetch(`${nginx.url}/api/v1/categories`);
  if (r.status === 429) expect(r.headers.get('retry-after')).toBe('1');
  await r.arrayBuffer();

  // With a key: through nginx untouched, counted by the node against the key (120 a minute on enterprise).
  const keyed = await sendAll(nginx.url, 4, Array.from({ length: 60 }, () => ({ path: '/api/ai/recommend?q=website&limit=1', headers: { 'x-api-key': key } })), () => {});
  expect(keyed.byStatus[200]).toBe(60);
  recordFigures('nginx-lb.conf limit_req (one address)', { unkeyedSent: figures.sent, passed: figures.byStatus[200], limitedByNginx: limited.length, keyedSent: keyed.sent, keyedPassed: keyed.byStatus[200] });
});
