/**
 * The in-process cache of public API answers (issue 7). A snapshot never changes
 * once built, so the answer to a public GET is a function of (snapshot, URL): it
 * is computed once and kept until the server swaps to another snapshot.
 *
 * - One generation at a time, tied to the Snapshot object: a lookup with another
 *   snapshot (the holder swapped) drops every entry, and a store computed against
 *   a snapshot that is no longer current is ignored. A body of the old snapshot
 *   can never be served after a swap.
 * - Bounded by bytes (bodies, their compressed variants and a per-entry overhead),
 *   least recently used first out. One answer larger than an eighth of the budget
 *   is not kept, so a few huge pages cannot flush everything else.
 * - Only what the caller stores: src/server/rest-node.ts stores 200 answers of
 *   routes with the snapshot cache policy (public, unkeyed). Per-request headers
 *   (X-Request-ID, Connection) are added when written, never stored.
 */
import type { Snapshot } from '../query/snapshot.ts';
import type { Reply } from './respond.ts';

export type Encoding = 'br' | 'gzip';

export interface CachedReply {
  readonly key: string;
  readonly reply: Reply;
  /** the ETag the reply carries (If-None-Match is answered from it) */
  readonly etag: string;
  /** compressed bodies, made on first request for each encoding */
  readonly encoded: Partial<Record<Encoding, Buffer>>;
  bytes: number;
}

/** Keys, header names and values, Map slots: counted per entry on top of the bodies. */
const ENTRY_OVERHEAD_BYTES = 600;

export interface ResponseCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
}

export class ResponseCache {
  private snapshot: Snapshot | undefined;
  private entries = new Map<string, CachedReply>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(readonly maxBytes: number) {}

  /** The cached answer for this URL under this snapshot, or undefined. */
  get(snapshot: Snapshot, key: string): CachedReply | undefined {
    if (snapshot !== this.snapshot) this.startGeneration(snapshot);
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Map order is the recency order: move the entry to the young end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps an answer computed against `snapshot`; ignored when that snapshot is no longer current. */
  set(snapshot: Snapshot, key: string, reply: Reply, etag: string): CachedReply | undefined {
    if (snapshot !== this.snapshot) return undefined;
    const bytes = (reply.body?.length ?? 0) + key.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 8) return undefined;
    const previous = this.entries.get(key);
    if (previous) this.remove(previous);
    const entry: CachedReply = { key, reply, etag, encoded: {}, bytes };
    this.entries.set(key, entry);
    this.bytes += bytes;
    this.evict();
    return entry;
  }

  /** The entry's body in this encoding, compressed once and counted against the budget. */
  encoded(entry: CachedReply, encoding: Encoding, compress: (body: Buffer, encoding: Encoding) => Buffer): Buffer {
    const known = entry.encoded[encoding];
    if (known) return known;
    const body = compress(entry.reply.body ?? Buffer.alloc(0), encoding);
    entry.encoded[encoding] = body;
    // An entry evicted meanwhile keeps serving the request that holds it, uncounted.
    if (this.entries.get(entry.key) === entry) {
      entry.bytes += body.length;
      this.bytes += body.length;
      this.evict();
    }
    return body;
  }

  stats(): ResponseCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses };
  }

  private startGeneration(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.entries = new Map();
    this.bytes = 0;
  }

  private remove(entry: CachedReply): void {
    this.entries.delete(entry.key);
    this.bytes -= entry.bytes;
  }

  private evict(): void {
    for (const oldest of this.entries.values()) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(oldest);
    }
  }
}

/** API_RESPONSE_CACHE_MB as a cache, or undefined when it is 0 (disabled). */
export function responseCacheFor(megabytes: number): ResponseCache | undefined {
  return megabytes > 0 ? new ResponseCache(Math.floor(megabytes * 1024 * 1024)) : undefined;
}
