/**
 * The key store and the rate limiter of this process, made once from the settings:
 * KEYS_DB for keys, REDIS_URL (when set) for counters shared between API nodes,
 * in-process memory otherwise. Tests make their own with `createKeyServices` and
 * an injected clock, then install them with `useKeyServices`.
 */
import * as z from 'zod';
import { loadEnv } from '../../env.ts';
import { KeyStore } from '../../keys/key-store.ts';
import { RateLimiter } from '../rate-limit/limiter.ts';
import { MemoryRateLimitStore } from '../rate-limit/memory-store.ts';
import { RedisRateLimitStore } from '../rate-limit/redis-store.ts';
import { systemClock, type Clock } from '../rate-limit/store.ts';

export interface KeyServices {
  keys: KeyStore;
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
  const keys = new KeyStore(options.keysDb);
  const limiter = new RateLimiter(store, clock);
  return {
    keys,
    limiter,
    now: () => new Date(),
    async close() {
      keys.close();
      await limiter.close();
    },
  };
}

/**
 * Test hook for whole-server tests: RATE_LIMIT_CLOCK_MS pins the rate limiter's
 * clock (epoch milliseconds) so a test's requests all fall in one window however
 * long they take. Never set in production; key expiry ignores it.
 */
const PinnedClockSchema = z.coerce.number().int().positive().optional();

let current: KeyServices | undefined;

/** The clock of every rate-limit window in this process (keys and the public limit): pinned by RATE_LIMIT_CLOCK_MS, else the system's. */
export function rateLimitClock(): Clock {
  const pinned = PinnedClockSchema.parse(process.env.RATE_LIMIT_CLOCK_MS || undefined);
  return pinned !== undefined ? () => pinned : systemClock;
}

export function keyServices(): KeyServices {
  if (!current) {
    const env = loadEnv();
    current = createKeyServices({ keysDb: env.keysDb, redisUrl: env.redisUrl, clock: rateLimitClock() });
  }
  return current;
}

/** Installs the services this process uses (tests, or a server that builds its own). */
export function useKeyServices(services: KeyServices | undefined): void {
  current = services;
}
