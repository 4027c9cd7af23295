/**
 * A least-recently-used map bounded by a cost (bytes, usually) instead of a count:
 * per-snapshot caches hold typed arrays from a few bytes to megabytes, so a count
 * bound would be either useless for small entries or unsafe for large ones.
 */
export class CostBoundedLru<K, V> {
  private readonly entries = new Map<K, { value: V; cost: number }>();
  private total = 0;

  private readonly budget: number;
  constructor(budget: number) {
    this.budget = budget;
  }

  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Map order is insertion order: re-inserting marks it most recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V, cost: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.cost;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, cost });
    this.total += cost;
    // Evict the least recently used, but never the entry just added.
    for (const [k] of this.entries) {
      if (this.total <= this.budget || k === key) break;
      this.delete(k);
      this.evicted(k);
    }
  }

  delete(key: K): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.cost;
  }

  /** Called for each entry set() evicts (list-caches.ts tells the other search threads). */
  protected evicted(_key: K): void {}

  /** Every entry as [key, value, cost], least recently used first (a copy: the cache may change meanwhile). */
  ordered(): [K, V, number][] {
    return [...this.entries].map(([k, e]) => [k, e.value, e.cost]);
  }

  get size(): number {
    return this.entries.size;
  }

  get cost(): number {
    return this.total;
  }
}
