/** What crosses the boundary between the main thread and a search thread (search-threads.ts, search-worker.ts). */
import type { MessagePort } from 'node:worker_threads';
import type { EmbedderConfig } from '../env.ts';
import type { PublishedColumns } from '../query/published-columns.ts';
import type { SearchHit, SearchRequest, SearchResult } from '../search/search.ts';
import type { SharedVectorIndex } from '../search/vector-index.ts';
import type { ErrorCode } from './errors.ts';

export interface SearchThreadSetup {
  embedder: EmbedderConfig;
  /** Snapshot.searchingThreads of every snapshot: SEARCH_THREADS + 1 */
  searchingThreads: number;
  /** this thread's scratch slot in the shared vector kernel (the main thread has 0) */
  slot: number;
  /** where this thread posts its SearchAnswers */
  answers: MessagePort;
}

/**
 * A list one thread computed, for the caches of snapshot `key`, or (value null) one it
 * evicted (src/query/list-caches.ts). From a search thread the list is a copy, which
 * the main thread puts on shared memory; from the main thread it is on shared memory.
 */
export interface SharedList {
  kind: 'list';
  key: number;
  cache: string;
  /** the cache's byte budget, for a thread that has not made that cache yet */
  budget: number;
  listKey: string;
  value: object | null;
  cost: number;
}

export type ToSearchThread =
  /** open the file the main thread opened as `key`; the index and columns are shared memory */
  | { kind: 'open'; key: number; file: string; snapshotId: string; vectorIndex: SharedVectorIndex | null; columns: PublishedColumns }
  | { kind: 'search'; id: number; key: number; request: SearchRequest }
  | SharedList
  /** the main thread closed snapshot `key`: no search of it is running or will be sent */
  | { kind: 'close'; key: number };

/**
 * A SearchResult without each hit's summary: the main thread makes it again from the
 * row (toBusinessSummary, 6 us for 20 rows), where copying it across cost 90 us of
 * the 250 us a whole result's structured clone took (100,000 providers, 20 hits).
 */
export type ThreadSearchResult = Omit<SearchResult, 'items'> & { items: Omit<SearchHit, 'summary'>[] };

export type FromSearchThread = { kind: 'opened'; key: number; ok: boolean; reason?: string } | SharedList;

/** A search's answer, on the thread's answers port. */
export type SearchAnswer =
  | { kind: 'result'; id: number; result: ThreadSearchResult }
  | { kind: 'failed'; id: number; error: { code?: ErrorCode; message: string; headers?: Record<string, string> } };
