/**
 * The key store and the rate limiter of this process, made from the settings:
 * with REDIS_URL both live in the Redis the API nodes share (keys and counters),
 * without it the keys are in KEYS_DB and the counters in process memory. The app context (src/server/context.ts) makes them
 * on first use; tests make their own with an injected clock and give them to it.
 */
import type { Keys } from '../../keys/key-store.ts';
import { openKeys } from '../../keys/keys.ts';
import { RateLimiter } from '../rate-limit/limiter.ts';
import { MemoryRateLimitStore } from '../rate-limit/memory-store.ts';
import { RedisRateLimitStore } from '../rate-limit/redis-store.ts';
import { systemClock, type Clock } from '../rate-limit/store.ts';

export interface KeyServices {
  keys: Keys;
  limiter: RateLimiter;
  /** Time for key expiry checks. */
  now: () => Date;
  close(): Promise<void>;
}

export interface KeyServicesOptions {
  keysDb: string;
  redisUrl?: string | undefined;
  /** Clock of the rate-limit windows; the system clock unless a test pins it. */
  clock?: Clock;
}

export function createKeyServices(options: KeyServicesOptions): KeyServices {
  const clock = options.clock ?? systemClock;
  const store = options.redisUrl ? new RedisRateLimitStore(options.redisUrl) : new MemoryRateLimitStore(clock);
  const keys = openKeys(options);
  const limiter = new RateLimiter(store, clock);
  return {
    keys,
    limiter,
    now: () => new Date(),
    async close() {
      await keys.close();
      await limiter.close();
    },
  };
}
