/**
 * The in-process cache of public API answers (issue 7). A snapshot never changes
 * once built, so the answer to a public GET is a function of (snapshot, route,
 * normalized parameters): it is computed once and kept until the server swaps to
 * another snapshot. The key is built by src/server/rest-node.ts from the
 * validated, normalized parameters (src/server/rest/canonical.ts), so unknown or
 * reordered parameters never make a new entry.
 *
 * - One generation at a time, tied to the Snapshot object: a lookup with another
 *   snapshot (the holder swapped) drops every entry, and a store computed against
 *   a snapshot that is no longer current is ignored. A body of the old snapshot
 *   can never be served after a swap.
 * - Compact under long-tail traffic: a compressible answer is kept gzipped (the
 *   encoding nearly every client accepts, about a fifth of the JSON) and, while it
 *   is among the recently used, also plain (and brotli once a client asks for it).
 *   Over the budget, the least recently used entries first lose their plain and
 *   brotli bodies ("compact"), and only when every entry is compact do the least
 *   recently used go. A compact entry asked for without gzip is gunzipped (tens of
 *   microseconds) and becomes full again. So 5,000 distinct 15 KB answers (75 MB
 *   plain) fit in 64 MB as about 20 MB of gzip, while a hot set that fits keeps
 *   answering without any decompression (what the HTTP benchmark measures).
 * - Bounded by bytes (bodies and a per-entry overhead). One answer larger than an
 *   eighth of the budget is not kept, so a few huge pages cannot flush the rest.
 * - Only what the caller stores: 200 answers of routes with the snapshot cache
 *   policy (public, unkeyed). Per-request headers (X-Request-ID, Connection, rate
 *   limit) are added when written, never stored.
 */
import zlib from 'node:zlib';
import type { Snapshot } from '../query/snapshot.ts';
import { compress as compressBody } from './compression.ts';
import { keptCopy } from './kept-buffer.ts';
import type { Reply } from './respond.ts';

export type Encoding = 'br' | 'gzip';
type Compress = (body: Buffer, encoding: Encoding) => Buffer;

export interface CachedReply {
  readonly key: string;
  readonly status: number;
  /** the answer's own headers (lowercase), without the body's length or encoding */
  readonly headers: Record<string, string>;
  /** the ETag the reply carries (If-None-Match is answered from it) */
  readonly etag: string;
  /** true when the body is sent compressed to clients that accept it (kept gzipped) */
  readonly compressible: boolean;
  /** null while compact */
  plain: Buffer | null;
  gzip: Buffer | null;
  br: Buffer | null;
  bytes: number;
}

/** Keys, header names and values, Map slots: counted per entry on top of the bodies. */
const ENTRY_OVERHEAD_BYTES = 600;

/** The counters GET /healthz reports (the HTTP benchmark reads the hit rate from them). */
export interface ResponseCacheCounters {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

export interface ResponseCacheStats extends ResponseCacheCounters {
  maxBytes: number;
  /** entries holding only their gzip body */
  compact: number;
}

export class ResponseCache {
  private snapshot: Snapshot | undefined;
  /** every entry, least recently used first */
  private entries = new Map<string, CachedReply>();
  /** entries holding a plain body beside their gzip one (the ones that can be made compact), least recently used first */
  private full = new Map<string, CachedReply>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  readonly maxBytes: number;
  private readonly compress: Compress;
  constructor(
    maxBytes: number,
    compress: Compress = compressBody,
  ) {
    this.maxBytes = maxBytes;
    this.compress = compress;
  }

  /** The cached answer under this key and snapshot, or undefined. */
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
    if (this.full.delete(key)) this.full.set(key, entry);
    return entry;
  }

  /**
   * Keeps an answer computed against `snapshot` (ignored when that snapshot is no
   * longer current, or when it is too large). `compressible`: sent compressed to
   * clients that accept it, so it is kept gzipped.
   */
  set(snapshot: Snapshot, key: string, reply: Reply, etag: string, compressible = false): CachedReply | undefined {
    if (snapshot !== this.snapshot) return undefined;
    const body = reply.body ?? Buffer.alloc(0);
    if (body.length + key.length + ENTRY_OVERHEAD_BYTES > this.maxBytes / 8) return undefined;
    const plain = keptCopy(body);
    const gzip = compressible ? keptCopy(this.compress(plain, 'gzip')) : null;
    const previous = this.entries.get(key);
    if (previous) this.remove(previous);
    const entry: CachedReply = { key, status: reply.status, headers: reply.headers, etag, compressible, plain, gzip, br: null, bytes: 0 };
    entry.bytes = key.length + ENTRY_OVERHEAD_BYTES + plain.length + (gzip?.length ?? 0);
    this.entries.set(key, entry);
    if (gzip) this.full.set(key, entry);
    this.bytes += entry.bytes;
    this.fit();
    return entry;
  }

  /** The entry's body in this encoding (null: plain), made from what is kept when needed. */
  body(entry: CachedReply, encoding: Encoding | null): Buffer {
    if (encoding === 'gzip' && entry.gzip) return entry.gzip;
    const plain = entry.plain ?? this.restorePlain(entry);
    if (encoding !== 'br') return plain;
    if (entry.br) return entry.br;
    const br = keptCopy(this.compress(plain, 'br'));
    if (entry.plain) this.grow(entry, () => (entry.br = br), br.length);
    return br;
  }

  counters(): ResponseCacheCounters {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  stats(): ResponseCacheStats {
    return { ...this.counters(), maxBytes: this.maxBytes, compact: this.entries.size - this.full.size };
  }

  /** A compact entry asked for plain (or brotli): gunzip it and keep it full again, as recently used. */
  private restorePlain(entry: CachedReply): Buffer {
    const plain = keptCopy(zlib.gunzipSync(entry.gzip!));
    this.grow(
      entry,
      () => {
        entry.plain = plain;
        this.full.set(entry.key, entry);
      },
      plain.length,
    );
    return plain;
  }

  /** Adds a body to a live entry and counts it; an entry evicted meanwhile keeps serving its request, uncounted. */
  private grow(entry: CachedReply, add: () => void, length: number): void {
    if (this.entries.get(entry.key) !== entry) return;
    add();
    entry.bytes += length;
    this.bytes += length;
    this.fit();
  }

  private startGeneration(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.entries = new Map();
    this.full = new Map();
    this.bytes = 0;
  }

  private remove(entry: CachedReply): void {
    this.entries.delete(entry.key);
    this.full.delete(entry.key);
    this.bytes -= entry.bytes;
  }

  /** Over the budget: make the least recently used full entries compact, then drop the least recently used. */
  private fit(): void {
    for (const oldest of this.full.values()) {
      if (this.bytes <= this.maxBytes) return;
      const freed = oldest.plain!.length + (oldest.br?.length ?? 0);
      oldest.plain = null;
      oldest.br = null;
      oldest.bytes -= freed;
      this.bytes -= freed;
      this.full.delete(oldest.key);
    }
    for (const oldest of this.entries.values()) {
      if (this.bytes <= this.maxBytes) return;
      this.remove(oldest);
    }
  }
}

/** API_RESPONSE_CACHE_MB as a cache, or undefined when it is 0 (disabled). */
export function responseCacheFor(megabytes: number, compress?: Compress): ResponseCache | undefined {
  return megabytes > 0 ? new ResponseCache(Math.floor(megabytes * 1024 * 1024), compress) : undefined;
}
