/**
 * Counters in Redis, shared by every API node that points REDIS_URL at it, so a
 * key has one budget however many nodes serve it. INCR and PEXPIRE run in one
 * MULTI transaction: the counter never exists without its expiry, even when a
 * node dies between the two.
 */
import { Redis } from 'ioredis';
import type { RateLimitStore } from './store.ts';

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

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
  }

  async increment(bucket: string, ttlMs: number): Promise<number> {
    const results = await this.redis.multi().incr(bucket).pexpire(bucket, ttlMs).exec();
    if (!results) throw new Error('redis transaction aborted');
    const [incrError, count] = results[0]!;
    if (incrError) throw incrError;
    return Number(count);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
