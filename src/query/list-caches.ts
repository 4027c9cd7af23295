/**
 * The per-snapshot caches of lists (posting lists, group lists: postings-store.ts;
 * filter sets: filter-set.ts), bounded by bytes. With one searching thread they are
 * plain CostBoundedLru maps. With search threads (Snapshot.searchingThreads > 1,
 * src/server/search-threads.ts) they are one shared arena in effect: a list one
 * thread computes is published and put on shared memory (its typed arrays copied to
 * SharedArrayBuffers) by the main thread, and every thread adopts that memory into
 * its own cache, so each list is computed once and held once however many threads
 * keep it. Only the main thread allocates the shared copies: when a search thread
 * made its own, they lived in that thread's malloc arena, where the holes the
 * evicted lists left were of no use to the main thread's allocations and the
 * reverse; at 1,000,000 providers the search thread's arena grew to 370 MB beside
 * the main thread's (2026-11-25; bench/results/history.md, "Search threads and the
 * HTTP tail"). Each thread's cache keeps its own recency order within the whole
 * budget, and a list one thread evicts is dropped by all, so together they hold about
 * one budget of lists.
 * Splitting the budget between the threads instead made each thread reload and
 * recompute the common lists in turn: at 1,000,000 providers 3x the CPU per search.
 */
import { isMainThread } from 'node:worker_threads';
import { CostBoundedLru } from './lru.ts';

/**
 * Where a thread's new lists and evictions go: the search threads' pool (main thread)
 * or the port to it (a search thread). `value` null: the thread evicted `key`.
 */
export type PublishList = (cache: string, budget: number, key: string, value: object | null, cost: number) => void;

type TypedArray = Int32Array | Uint32Array | Uint8Array | Float32Array | Float64Array;
interface TypedArrayClass {
  new (buffer: SharedArrayBuffer): TypedArray;
}

/**
 * Puts the value's typed arrays on shared memory, in place: the thread that computed
 * the list goes on with the shared copy, and each original's memory is freed at once
 * (its buffer detached) rather than left for the garbage collector. Left to it, the
 * originals (a term list's blobs, a group list's arrays) waited for a collection in
 * each thread that computed lists, and the process held them beside the shared
 * copies. A list given to a cache is the cache's: its arrays own their buffers.
 */
function moveToSharedMemory(value: object): void {
  const fields = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(fields)) {
    if (!ArrayBuffer.isView(v) || v.buffer instanceof SharedArrayBuffer) continue;
    const copy = new (v.constructor as TypedArrayClass)(new SharedArrayBuffer(v.byteLength));
    copy.set(v as TypedArray);
    fields[k] = copy;
    // Only a view over its whole buffer: a slice of a larger one (a Buffer pool's) is not the list's to free.
    if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) v.buffer.transfer(0);
  }
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

  /** A list this thread computed: on shared memory now (main thread) or once the main thread sends it back (search thread). */
  override set(key: string, value: V, cost: number): void {
    if (isMainThread) moveToSharedMemory(value);
    super.set(key, value, cost);
    this.caches.publish?.(this.name, this.byteBudget, key, value, cost);
  }

  // Over budget, a thread evicts for all: the others drop the list too, so the lists held
  // by any thread stay within about one budget instead of one per thread.
  protected override evicted(key: string): void {
    this.caches.publish?.(this.name, this.byteBudget, key, null, 0);
  }

  /**
   * Another thread's list (kept, not published again), or its eviction. On the main
   * thread a search thread's list arrives as a copy and is put on shared memory here.
   */
  adopt(key: string, value: V | null, cost: number): void {
    if (value === null) return this.delete(key);
    moveToSharedMemory(value);
    super.set(key, value, cost);
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

  /**
   * A list another thread published, or evicted (null) (with its cache's budget: this
   * thread may not have made that cache yet). The list is on shared memory after this
   * call (in place): the main thread sends it on to every search thread.
   */
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
