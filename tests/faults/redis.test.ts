/**
 * Redis stopped under load: the node reads its keys and shares its rate counters
 * through a real redis-server (with its append-only file, as a Redis holding keys
 * runs). While it is away, key-protected requests answer 503 SERVICE_UNAVAILABLE
 * with Retry-After (keys and limit fail closed) and public requests keep
 * answering (uncounted, without rate headers) with no failure; when Redis is back
 * at the same address, the key is known again and both limits count again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { createKey, freePort, generate, startNode, waitFor, workspace, type Node } from '../resilience/fixture.ts';
import type { Service } from '../support/binaries.ts';
import { startRedisOn } from '../support/binaries.ts';
import { answersPast, recordFigures, startLoad, summary } from './fixture.ts';

let ws = '';
let node: Node;
let redis: Service | undefined;
let port = 0;
let key = '';

beforeAll(async () => {
  ws = workspace('faults-redis');
  const data = await generate(path.join(ws, 'data'), 150, 8);
  const env = { DIRECTORY_DB: path.join(ws, 'directory.db'), KEYS_DB: path.join(ws, 'keys.db') };
  await buildSnapshot({ inputDir: data, outFile: env.DIRECTORY_DB });
  port = await freePort();
  fs.mkdirSync(path.join(ws, 'redis'));
  redis = await startRedisOn(port, path.join(ws, 'redis'));
  key = createKey({ ...env, REDIS_URL: `redis://127.0.0.1:${port}` }, 'enterprise');
  node = await startNode({
    ...env,
    REDIS_URL: `redis://127.0.0.1:${port}`,
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs'),
  });
});

afterAll(async () => {
  await node?.stop();
  await redis?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

async function keyed(): Promise<{ status: number; retryAfter: string | null; limit: string | null }> {
  const r = await fetch(`${node.url}/api/ai/recommend?q=jasa+website&limit=1`, { headers: { 'x-api-key': key } });
  await r.arrayBuffer();
  return { status: r.status, retryAfter: r.headers.get('retry-after'), limit: r.headers.get('x-ratelimit-limit') };
}

const publicLimitHeader = async () => {
  const r = await fetch(`${node.url}/api/v1/categories`);
  await r.arrayBuffer();
  return r.headers.get('x-ratelimit-limit');
};

it('keyed routes fail closed with 503 + Retry-After, public routes keep answering, and limits recover', async () => {
  expect(await keyed()).toMatchObject({ status: 200, limit: '120' });
  expect(await publicLimitHeader()).toBe('1000000');

  const load = startLoad(node.url, 20, (w, n) => ({ path: n % 2 ? `/api/v1/search?q=toko+online+${w}-${n}` : '/api/v1/providers?limit=3' }));
  await answersPast(load, 300);
  await redis!.stop();
  redis = undefined;
  const down = await waitFor('the keyed route to fail closed', async () => {
    const r = await keyed();
    return r.status === 503 ? r : undefined;
  });
  expect(down.retryAfter).toBe('5');
  await answersPast(load, 500);
  expect(await publicLimitHeader()).toBeNull(); // uncounted while Redis is away

  redis = await startRedisOn(port, path.join(ws, 'redis'));
  await waitFor('the keyed route to count again', async () => ((await keyed()).status === 200 ? true : undefined));
  await answersPast(load, 300);
  const figures = await load.stop();
  expect(await keyed()).toMatchObject({ status: 200, limit: '120' });
  expect(await publicLimitHeader()).toBe('1000000');

  expect(figures.failures, figures.errorSamples.join('\n')).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  recordFigures('Redis stopped and restarted under 20 connections (public routes)', summary(figures));
});
