/**
 * The per-snapshot caches of lists (posting lists, group lists: postings-store.ts;
 * filter sets: filter-set.ts), bounded by bytes. With one searching thread they are
 * plain CostBoundedLru maps. With search threads (Snapshot.searchingThreads > 1,
 * src/server/search-threads.ts) they are one shared arena in effect: a list one
 * thread computes is put on shared memory (its typed arrays copied to
 * SharedArrayBuffers) and published, and every other thread adopts the same memory
 * into its own cache, so each list is computed once and held once however many
 * threads keep it. Each thread's cache keeps its own recency order within the whole
 * budget, and a list one thread evicts is dropped by all, so together they hold about
 * one budget of lists. Splitting the
 * budget between the threads instead made each thread reload and recompute the common
 * lists in turn: at 1,000,000 providers 3x the CPU per search.
 */
import { CostBoundedLru } from './lru.ts';

/**
 * Where a thread's new lists and evictions go: the search threads' pool (main thread)
 * or the port to it (a search thread). `value` null: the thread evicted `key`.
 */
export type PublishList = (cache: string, budget: number, key: string, value: object | null, cost: number) => void;

type TypedArray = Int32Array | Uint8Array | Float32Array | Float64Array;
interface TypedArrayClass {
  new (buffer: SharedArrayBuffer): TypedArray;
}

/** The value with every typed array on shared memory (a copy of those that are not). */
function onSharedMemory<V extends object>(value: V): V {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (ArrayBuffer.isView(v) && !(v.buffer instanceof SharedArrayBuffer)) {
      const copy = new (v.constructor as TypedArrayClass)(new SharedArrayBuffer(v.byteLength));
      copy.set(v as TypedArray);
      out[k] = copy;
    } else out[k] = v;
  }
  return out as V;
}

class SharedLru<V extends object> extends CostBoundedLru<string, V> {
  private readonly caches: ListCaches;
  private readonly name: string;
  readonly byteBudget: number;
  constructor(budget: number, caches: ListCaches, name: string) {
    super(budget);
    this.byteBudget = budget;
    this.caches = caches;
    this.name = name;
  }

  override set(key: string, value: V, cost: number): void {
    const shared = onSharedMemory(value);
    super.set(key, shared, cost);
    this.caches.publish?.(this.name, this.byteBudget, key, shared, cost);
  }

  // Over budget, a thread evicts for all: the others drop the list too, so the lists held
  // by any thread stay within about one budget instead of one per thread.
  protected override evicted(key: string): void {
    this.caches.publish?.(this.name, this.byteBudget, key, null, 0);
  }

  /** Another thread's list, already on shared memory (kept, not published again), or its eviction. */
  adopt(key: string, value: V | null, cost: number): void {
    if (value === null) this.delete(key);
    else super.set(key, value, cost);
  }
}

export class ListCaches {
  private readonly shared = new Map<string, SharedLru<object>>();
  /** set by the search threads' pool; until then new lists stay in this thread */
  publish: PublishList | undefined;

  private readonly acrossThreads: boolean;
  constructor(acrossThreads: boolean) {
    this.acrossThreads = acrossThreads;
  }

  /** The cache `name` of this snapshot (inside the snapshot's memo); across threads, the one adopt() made if it came first. */
  create<V extends object>(name: string, budget: number): CostBoundedLru<string, V> {
    if (!this.acrossThreads) return new CostBoundedLru<string, V>(budget);
    return this.sharedCache(name, budget) as unknown as CostBoundedLru<string, V>;
  }

  /** A list another thread published, or evicted (null) (with its cache's budget: this thread may not have made that cache yet). */
  adopt(name: string, budget: number, key: string, value: object | null, cost: number): void {
    this.sharedCache(name, budget).adopt(key, value, cost);
  }

  /**
   * Publishes every list this thread's caches hold, least recently used first (each
   * put on shared memory, in place): the lists computed before the search threads
   * knew the snapshot (the warm-up's), so that no thread computes them again.
   */
  publishAll(): void {
    for (const cache of this.shared.values()) for (const [key, value, cost] of cache.ordered()) cache.set(key, value, cost);
  }

  private sharedCache(name: string, budget: number): SharedLru<object> {
    let cache = this.shared.get(name);
    if (!cache) this.shared.set(name, (cache = new SharedLru<object>(budget, this, name)));
    return cache;
  }
}
