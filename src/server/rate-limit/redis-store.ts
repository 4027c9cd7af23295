/**
 * Counters in Redis, shared by every API node that points REDIS_URL at it, so a
 * key has one budget however many nodes serve it. INCRBY and PEXPIRE run in one
 * script: the counter never exists without its expiry, even when a node dies
 * between the two. The take (cost when it fits, else one hit) is one
 * Lua script, so concurrent nodes never both take the last calls of a budget.
 *
 * While the connection is down a command fails at once instead of waiting in
 * ioredis's offline queue: the key guard answers 503 and the public limit lets
 * requests through (src/server/rate-limit/public-limit.ts) without a 2 s stall each.
 */
import { Redis } from 'ioredis';
import type { RateLimitStore } from './store.ts';

/** KEYS[1] bucket; ARGV cost, limit, ttl in ms. Returns {count after, 1 when allowed}. */
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
local allowed = 1
if count + cost > tonumber(ARGV[2]) then
  cost = 1
  allowed = 0
end
count = redis.call('INCRBY', KEYS[1], cost)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {count, allowed}
`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private wasReady = false;

  constructor(url: string) {
    this.redis = new Redis(url, {
      // Fail a request quickly when Redis is away instead of queueing it for minutes.
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 2000,
      lazyConnect: false,
    });
    // Connection errors surface on the command that needs Redis; without a listener
    // ioredis would also print each reconnect attempt as an unhandled error.
    this.redis.on('error', () => {});
    this.redis.once('ready', () => (this.wasReady = true));
  }

  async take(bucket: string, cost: number, limit: number, ttlMs: number): Promise<{ count: number; allowed: boolean }> {
    // Before the first connection, commands wait in the queue (a node that just started);
    // after a lost one, they fail at once until ioredis has reconnected.
    if (this.wasReady && this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
    const [count, allowed] = (await this.redis.eval(TAKE_SCRIPT, 1, bucket, cost, limit, ttlMs)) as [number, number];
    return { count: Number(count), allowed: allowed === 1 };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
