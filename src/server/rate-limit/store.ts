/**
 * Where rate-limit counters live. One counter per key per fixed window: the
 * bucket name includes the window's start, so a new window is a new counter and
 * no store ever needs to reset anything; old buckets simply expire.
 */
export interface RateLimitStore {
  /** Adds one hit to `bucket` and returns its count after the hit. The bucket may be forgotten after `ttlMs`. */
  increment(bucket: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

/** Milliseconds since the epoch. Injected so tests can pin time inside one window. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
