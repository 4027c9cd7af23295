/**
 * Scale-out on one machine: two API processes behind nginx (docs/nginx-lb.conf,
 * with free loopback ports) reading the same snapshot and sharing one rate budget
 * through one redis-server. Then a rolling restart: one node is stopped with
 * SIGTERM under load and nginx sends the traffic to the other without a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { createKey, deploymentEnv, generate, ROOT, startNginx, startNode, startRedis, workspace, type Node, type Service } from './fixture.ts';
import { startLoad } from './load.ts';

let ws = '';
let redis: Service;
let nginx: Service;
let nodes: Node[] = [];
let key = '';

/**
 * docs/nginx-lb.conf with the node and listen addresses of this test, and without
 * its per-client limit: all load here comes from one address (tests/faults/nginx-limit
 * runs the limit as shipped).
 */
function lbConfig(ports: number[]): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/nginx-lb.conf'), 'utf8');
  expect(doc).toMatch(/limit_req zone=directory_public [^;]+;/);
  const conf = doc
    .replace(/limit_req zone=directory_public [^;]+;/, '')
    .replace('server 127.0.0.1:4321 ', `server 127.0.0.1:${ports[0]} `)
    .replace('server 127.0.0.1:4322 ', `server 127.0.0.1:${ports[1]} `)
    .replace('listen 80;', 'listen __LISTEN__;');
  expect(conf).not.toContain(':4321');
  expect(conf).toContain('__LISTEN__');
  return conf;
}

beforeAll(async () => {
  ws = workspace('scale');
  const data = await generate(path.join(ws, 'data'), 120, 9);
  // One window for the whole test: the minute can never turn mid-count (services.ts test hook).
  const env = deploymentEnv(ws, { ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs'), RATE_LIMIT_CLOCK_MS: String(Date.UTC(2026, 0, 1, 9, 30, 5)) });
  await buildSnapshot({ inputDir: data, outFile: env.DIRECTORY_DB! });
  redis = await startRedis();
  key = createKey({ ...env, REDIS_URL: redis.url }, 'regular');
  nodes = await Promise.all([startNode({ ...env, REDIS_URL: redis.url }), startNode({ ...env, REDIS_URL: redis.url })]);
  const ports = nodes.map((n) => Number(new URL(n.url).port));
  fs.mkdirSync(path.join(ws, 'nginx'));
  nginx = await startNginx(path.join(ws, 'nginx'), lbConfig(ports), '/healthz');
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('balances over both nodes, which share one rate budget per key through Redis', async () => {
  const pids = new Set<number>();
  for (let i = 0; i < 6; i++) {
    const r = await fetch(`${nginx.url}/healthz`, { headers: { 'x-request-id': `lb-health-${i}` } });
    expect(r.headers.get('x-request-id')).toBe(`lb-health-${i}`);
    pids.add(((await r.json()) as { pid: number }).pid);
  }
  expect(pids.size).toBe(2);

  const remaining: string[] = [];
  for (let i = 0; i < 30; i++) {
    const r = await fetch(`${nginx.url}/api/ai/recommend?q=website&limit=1`, { headers: { 'x-api-key': key, 'x-request-id': `lb-rec-${i}` } });
    expect(r.status).toBe(200);
    remaining.push(r.headers.get('x-ratelimit-remaining')!);
    await r.arrayBuffer();
  }
  expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
  // Both nodes answered part of the budget.
  for (const node of nodes) {
    expect(node.logs().filter((l) => l.route === '/api/ai/recommend' && String(l.requestId).startsWith('lb-rec-')).length).toBeGreaterThan(0);
  }
  for (let i = 0; i < 4; i++) {
    const r = await fetch(`${nginx.url}/api/ai/recommend?q=website`, { headers: { 'x-api-key': key } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    await r.arrayBuffer();
  }
});

it('keeps answering without a failure while one node is stopped under load', async () => {
  const load = startLoad(nginx.url, [{ path: '/api/v1/providers?limit=5' }, { path: '/healthz' }, { path: '/api/v1/categories' }]);
  const waitSeen = async (n: number) => {
    while (load.seen() < n) await new Promise((r) => setTimeout(r, 50));
  };
  await waitSeen(300);
  const code = await nodes[1]!.stop('SIGTERM');
  const at = load.seen();
  await waitSeen(at + 300);
  const tally = await load.stop();
  expect(code).toBe(0);
  expect({ serverErrors: tally.serverErrors, errors: tally.errors, timeouts: tally.timeouts }).toEqual({ serverErrors: 0, errors: 0, timeouts: 0 });
  expect(tally.withoutRequestId).toBe(0);
  expect(tally.byStatus[200]).toBe(tally.responses);
});
