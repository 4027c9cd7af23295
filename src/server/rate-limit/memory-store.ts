/**
 * Counters in this process's memory: right for one API node. Several nodes behind
 * a load balancer need the Redis store, or each would grant the full budget.
 */
import { systemClock, type Clock, type RateLimitStore } from './store.ts';

const SWEEP_EVERY = 1000;

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, { count: number; expiresAt: number }>();
  private sinceSweep = 0;

  private readonly clock: Clock;
  constructor(clock: Clock = systemClock) {
    this.clock = clock;
  }

  async take(bucket: string, cost: number, limit: number, ttlMs: number): Promise<{ count: number; allowed: boolean }> {
    const now = this.clock();
    if (++this.sinceSweep >= SWEEP_EVERY) this.sweep(now);
    let entry = this.buckets.get(bucket);
    if (!entry || entry.expiresAt <= now) {
      entry = { count: 0, expiresAt: now + ttlMs };
      this.buckets.set(bucket, entry);
    }
    const allowed = entry.count + cost <= limit;
    entry.count += allowed ? cost : 1;
    return { count: entry.count, allowed };
  }

  /** Drops expired buckets so a long-running node does not keep every window it ever saw. */
  private sweep(now: number): void {
    this.sinceSweep = 0;
    for (const [bucket, entry] of this.buckets) if (entry.expiresAt <= now) this.buckets.delete(bucket);
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
