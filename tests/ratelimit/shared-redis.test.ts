/**
 * Two server processes (two API nodes behind a load balancer) with one Redis:
 * one budget per key. RATE_LIMIT_CLOCK_MS pins both nodes' rate-limit clock in
 * one window, so the minute can never turn in the middle of the test.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisKeys } from '../../src/keys/redis-keys.ts';
import { buildTestSnapshot, startRedis, startServer, type Child } from '../keys/fixture.ts';

let redis: Child;
let nodes: Child[] = [];
let key: string;

beforeAll(async () => {
  const { dir, dbFile } = await buildTestSnapshot(120, 9);
  const keysDb = path.join(dir, 'keys.db');
  redis = await startRedis();
  // With REDIS_URL the nodes read their keys from Redis too.
  const keys = new RedisKeys(redis.url);
  key = (await keys.create({ tier: 'regular' })).key;
  await keys.close();
  const env = { DIRECTORY_DB: dbFile, KEYS_DB: keysDb, REDIS_URL: redis.url, RATE_LIMIT_CLOCK_MS: String(Date.UTC(2026, 0, 1, 9, 30, 20)) };
  nodes = await Promise.all([startServer(env), startServer(env)]);
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
});

it('a regular key gets 30 answers across both nodes, then 429 from either', async () => {
  const remaining: string[] = [];
  for (let i = 0; i < 30; i++) {
    // Alternate nodes and endpoints: the budget is per key, shared by /api/ai/recommend and POST /mcp.
    const node = nodes[i % 2]!;
    const r =
      i % 3 === 0
        ? await fetch(`${node.url}/mcp`, {
            method: 'POST',
            headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }),
          })
        : await fetch(`${node.url}/api/ai/recommend?q=website&limit=1`, { headers: { 'X-API-Key': key } });
    expect(r.status).toBe(200);
    remaining.push(r.headers.get('x-ratelimit-remaining')!);
    await r.arrayBuffer();
  }
  expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
  for (const node of nodes) {
    const r = await fetch(`${node.url}/api/ai/recommend?q=website`, { headers: { 'X-API-Key': key } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('40');
    expect(await r.json()).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) } });
  }
});
