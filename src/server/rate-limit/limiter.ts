/**
 * The fixed one-minute window per client (docs/interface.md): every request
 * with a valid key counts against the key, and the public limit counts unkeyed
 * requests per address the same way (src/server/rate-limit/public-limit.ts).
 * The window starts at whole minutes of the clock; a key's counter is shared by
 * /api/ai/recommend and POST /mcp because both count against the key's id.
 */
import { systemClock, type Clock, type RateLimitStore } from './store.ts';

export const WINDOW_MS = 60_000;
/** Buckets outlive their window a little, so a slow request near the edge still finds its counter. */
const BUCKET_TTL_MS = WINDOW_MS + 5_000;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (1-60). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly store: RateLimitStore;
  private readonly clock: Clock;
  constructor(
    store: RateLimitStore,
    clock: Clock = systemClock,
  ) {
    this.store = store;
    this.clock = clock;
  }

  /**
   * Takes `cost` requests from the client's budget (an MCP batch costs one per
   * message); a request that does not fit is refused and counts as one.
   */
  async consume(clientId: string, limit: number, cost = 1): Promise<RateLimitDecision> {
    const now = this.clock();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const { count, allowed } = await this.store.take(`rl:${clientId}:${windowStart}`, cost, limit, BUCKET_TTL_MS);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
    };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** The headers every key-protected response carries; a 429 adds Retry-After. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.resetSeconds),
    'RateLimit-Policy': `"default";q=${d.limit};w=${WINDOW_MS / 1000}`,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}

/** Header names the browser may read (CORS Access-Control-Expose-Headers). */
export const RATE_LIMIT_HEADER_NAMES = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
] as const;
