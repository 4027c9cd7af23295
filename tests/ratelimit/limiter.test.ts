/**
 * The fixed one-minute window with an injected clock (no test waits for, or races
 * against, a real minute), on the memory store and on a real redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, rateLimitHeaders } from '../../src/server/rate-limit/limiter.ts';
import { MemoryRateLimitStore } from '../../src/server/rate-limit/memory-store.ts';
import { RedisRateLimitStore } from '../../src/server/rate-limit/redis-store.ts';
import type { RateLimitStore } from '../../src/server/rate-limit/store.ts';
import { startRedis, type Child } from '../keys/fixture.ts';

// 10 s into a window, so the reset is 50 s away.
const WINDOW_START = Date.UTC(2026, 0, 1, 12, 0, 0);

function pinnedClock(start = WINDOW_START + 10_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function consumeMany(limiter: RateLimiter, key: string, limit: number, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await limiter.consume(key, limit));
  return out;
}

function behavesAsAFixedWindow(makeStore: (clock: () => number) => RateLimitStore, keyPrefix: string) {
  it('allows exactly the tier limit within one window, then denies', async () => {
    const clock = pinnedClock();
    const limiter = new RateLimiter(makeStore(clock.now), clock.now);
    const results = await consumeMany(limiter, `${keyPrefix}-a`, 30, 31);
    expect(results.slice(0, 30).every((r) => r.allowed)).toBe(true);
    expect(results.map((r) => r.remaining).slice(0, 3)).toEqual([29, 28, 27]);
    expect(results[29]).toMatchObject({ allowed: true, remaining: 0 });
    expect(results[30]).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
  });

  it('starts a fresh budget at the next window, and keys do not share budgets', async () => {
    const clock = pinnedClock();
    const limiter = new RateLimiter(makeStore(clock.now), clock.now);
    await consumeMany(limiter, `${keyPrefix}-b`, 120, 120);
    expect((await limiter.consume(`${keyPrefix}-b`, 120)).allowed).toBe(false);
    expect((await limiter.consume(`${keyPrefix}-c`, 120)).allowed).toBe(true);
    clock.advance(49_999); // still the same window: 1 ms before the minute turns
    expect(await limiter.consume(`${keyPrefix}-b`, 120)).toMatchObject({ allowed: false, resetSeconds: 1 });
    clock.advance(1);
    expect(await limiter.consume(`${keyPrefix}-b`, 120)).toMatchObject({ allowed: true, remaining: 119, resetSeconds: 60 });
  });
}

describe('memory store', () => {
  behavesAsAFixedWindow((clock) => new MemoryRateLimitStore(clock), 'mem');
});

describe('redis store (real redis-server)', () => {
  let redis: Child;
  const stores: RedisRateLimitStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await redis?.stop();
  });
  const make = () => {
    const s = new RedisRateLimitStore(redis.url);
    stores.push(s);
    return s;
  };

  behavesAsAFixedWindow(() => make(), `redis-${Date.now()}`);

  it('two limiters (two API nodes) on one Redis share one budget per key', async () => {
    const clock = pinnedClock();
    const nodeA = new RateLimiter(make(), clock.now);
    const nodeB = new RateLimiter(make(), clock.now);
    const key = `shared-${Date.now()}`;
    for (let i = 0; i < 15; i++) {
      expect((await nodeA.consume(key, 30)).allowed).toBe(true);
      expect((await nodeB.consume(key, 30)).allowed).toBe(true);
    }
    expect((await nodeA.consume(key, 30)).allowed).toBe(false);
    expect((await nodeB.consume(key, 30)).allowed).toBe(false);
  });
});

describe('rateLimitHeaders', () => {
  it('gives the x-ratelimit trio, the IETF pair and Retry-After only when denied', () => {
    const ok = rateLimitHeaders({ allowed: true, limit: 30, remaining: 7, resetSeconds: 12 });
    expect(ok).toEqual({
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': '12',
      'RateLimit-Policy': '"default";q=30;w=60',
      RateLimit: '"default";r=7;t=12',
    });
    expect(rateLimitHeaders({ allowed: false, limit: 120, remaining: 0, resetSeconds: 3 })['Retry-After']).toBe('3');
  });
});
