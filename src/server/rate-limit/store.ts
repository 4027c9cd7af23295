/**
 * Where rate-limit counters live. One counter per client per fixed window: the
 * bucket name includes the window's start, so a new window is a new counter and
 * no store ever needs to reset anything; old buckets simply expire.
 */
export interface RateLimitStore {
  /**
   * Takes `cost` hits from `bucket` when they fit under `limit`; when they do not,
   * counts one hit (the refused request) and takes nothing more, so a refused MCP
   * batch costs what any refused request costs. Returns the count after the hit(s).
   * The bucket may be forgotten after `ttlMs`.
   */
  take(bucket: string, cost: number, limit: number, ttlMs: number): Promise<{ count: number; allowed: boolean }>;
  close(): Promise<void>;
}

/** Milliseconds since the epoch. Injected so tests can pin time inside one window. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
