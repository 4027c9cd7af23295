/**
 * The per-client budget of unkeyed requests (PUBLIC_RATE_LIMIT_PER_MINUTE): the
 * same fixed one-minute window and the same headers as a key's budget, counted
 * per client address in the same store (Redis when REDIS_URL is set, so every
 * node counts one budget per address).
 *
 * What counts (src/server/node-server.ts decides): every request the node answers
 * dynamically (/api/v1/*, /search, /compare, GET /mcp, unknown paths) except
 * /healthz, and key-protected routes called with a key (the key's budget governs
 * those). Static files never count: they are the CDN's job, served from memory
 * with ETags, and one page view pulls several of them.
 *
 * The client is the socket's address, or with TRUST_PROXY = n the address n hops
 * back in X-Forwarded-For (what the n trusted proxies appended); anything a client
 * wrote itself further left is never read.
 *
 * Redis away: public requests are let through without rate headers (the public
 * site keeps answering; a warning is logged once per outage), while keyed
 * requests fail closed with 503 (src/server/auth/guard.ts).
 */
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { ApiError } from '../errors.ts';
import { rateLimitHeaders, type RateLimiter } from './limiter.ts';

export interface PublicVerdict {
  /** the rate-limit headers for the answer (none while the store is away) */
  headers: Record<string, string>;
  /** set when the budget is used up: the 429 to answer */
  refusal?: ApiError;
}

const MAX_ADDRESS_LENGTH = 64;

export class PublicLimit {
  private storeDown = false;

  private readonly limiter: RateLimiter;
  readonly perMinute: number;
  private readonly trustProxyHops: number;
  private readonly logger: Logger;
  constructor(
    limiter: RateLimiter,
    perMinute: number,
    trustProxyHops: number,
    logger: Logger,
  ) {
    this.limiter = limiter;
    this.perMinute = perMinute;
    this.trustProxyHops = trustProxyHops;
    this.logger = logger;
  }

  /** The address this request is counted under. */
  clientOf(req: IncomingMessage): string {
    const socketAddress = unmapped(req.socket.remoteAddress ?? 'unknown');
    if (this.trustProxyHops === 0) return socketAddress;
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const chain = [...forwarded, socketAddress];
    const candidate = unmapped(chain[Math.max(0, chain.length - 1 - this.trustProxyHops)]!.slice(0, MAX_ADDRESS_LENGTH));
    // A trusted proxy writes an address; anything else means the hop count is wrong: count the socket.
    return net.isIP(candidate) ? candidate : socketAddress;
  }

  async take(req: IncomingMessage): Promise<PublicVerdict> {
    let decision;
    try {
      decision = await this.limiter.consume(`public:${this.clientOf(req)}`, this.perMinute);
    } catch (err) {
      if (!this.storeDown) this.logger.warn({ reason: (err as Error).message }, 'public rate limit store unavailable; public requests pass uncounted');
      this.storeDown = true;
      return { headers: {} };
    }
    if (this.storeDown) this.logger.warn('public rate limit store is back');
    this.storeDown = false;
    const headers = rateLimitHeaders(decision);
    if (decision.allowed) return { headers };
    const refusal = new ApiError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${decision.limit} requests per minute per client exceeded; retry in ${decision.resetSeconds} s.`,
      headers,
    );
    return { headers, refusal };
  }
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is 1.2.3.4. */
const unmapped = (address: string) => (address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address);
