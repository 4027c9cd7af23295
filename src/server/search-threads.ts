/**
 * SEARCH_THREADS > 0: searches also run on worker threads of this process, so one
 * server process uses more than one core without holding the snapshot's big
 * structures twice (docs/architecture.md, "Search threads").
 *
 * Dispatch: the main thread keeps HTTP and searches too. A search goes to the
 * least busy thread that has the request's snapshot open and holds fewer than
 * PER_THREAD searches, else the main thread runs it at once. Before choosing, the
 * main thread takes the answers that have arrived (receiveMessageOnPort on each
 * thread's answers port): it reads many requests in one turn of its event loop,
 * and with the answers left to the next turn the threads' room stayed taken while
 * the main thread ran every other request of the turn itself (the thread did a
 * tenth of the searches). Queueing instead of running at once kept every request
 * read in a turn in flight, past SEARCH_MAX_IN_FLIGHT.
 *
 * Snapshots: the first search of a snapshot asks every thread to open the same
 * file (search-worker.ts); a thread answers only from the snapshot whose id the
 * main thread opened, and the main thread sends a search only to a thread that
 * confirmed it, so answers of two snapshots never mix. The main thread's request
 * holds its snapshot lease (snapshot-leases.ts) until the thread's answer is
 * back, so a swapped-out snapshot closes, and the threads close their connection
 * to it, only when no search of it runs anywhere.
 *
 * A thread that dies fails the searches it held (500, logged) and is
 * replaced after a second; searches meanwhile run on the others or the main thread.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { EmbedderConfig } from '../env.ts';
import { toBusinessSummary } from '../query/projections.ts';
import { publishedColumns } from '../query/published-columns.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { searchProviders, type SearchRequest, type SearchResult } from '../search/search.ts';
import { sharedVectorIndex, vectorIndex } from '../search/vector-index.ts';
import { ApiError } from './errors.ts';
import type { FromSearchThread, SearchAnswer, SearchThreadSetup, SharedList, ToSearchThread } from './search-thread-messages.ts';

const RESTART_AFTER_MS = 1_000;
/** Searches a thread holds at once: one running, one waiting, so it never waits for the main thread's turn to end. */
const PER_THREAD = 2;
/**
 * The thread's young generation (V8 let a worker's grow to 192 MB on the benchmark machine): a search
 * allocates little that outlives it (the lists it keeps are on shared memory, off the
 * heap), so a small nursery collects as cheaply and holds less of the process's memory.
 */
const YOUNG_GENERATION_MB = 8;

export type Searcher = (snapshot: Snapshot, request: SearchRequest) => Promise<SearchResult>;

interface Pending {
  resolve: (result: SearchResult) => void;
  reject: (err: Error) => void;
}

class SearchThread {
  readonly worker: Worker;
  readonly slot: number;
  /** snapshot keys this thread confirmed, and those it is opening */
  readonly open = new Set<number>();
  readonly opening = new Set<number>();
  /** searches sent and not yet answered, by id */
  readonly pending = new Map<number, Pending>();
  /** where the thread's answers arrive: their own port, so the main thread can take them between two requests (receiveMessageOnPort) */
  readonly answers: MessagePort;
  constructor(
    setup: Omit<SearchThreadSetup, 'answers'>,
    onMessage: (thread: SearchThread, m: FromSearchThread) => void,
    onAnswer: (thread: SearchThread, m: SearchAnswer) => void,
    onExit: (thread: SearchThread, reason: string) => void,
  ) {
    this.slot = setup.slot;
    const channel = new MessageChannel();
    this.answers = channel.port1;
    this.answers.on('message', (m: SearchAnswer) => onAnswer(this, m));
    this.answers.unref();
    const workerData: SearchThreadSetup = { ...setup, answers: channel.port2 };
    this.worker = new Worker(new URL('./search-worker.ts', import.meta.url), {
      workerData,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.worker.on('message', (m: FromSearchThread) => onMessage(this, m));
    this.worker.on('error', (err) => onExit(this, err.message));
    this.worker.on('exit', (code) => onExit(this, `exited with ${code}`));
  }

  send(message: ToSearchThread): void {
    this.worker.postMessage(message);
  }
}

export class SearchThreads {
  private readonly threads: (SearchThread | undefined)[];
  private readonly keys = new WeakMap<Snapshot, number>();
  /** what a thread (or its replacement) is sent to open each snapshot not yet closed */
  private readonly openMessages = new Map<number, Extract<ToSearchThread, { kind: 'open' }>>();
  private readonly snapshots = new Map<number, Snapshot>();
  /** SEARCH_THREADS + 1: Snapshot.searchingThreads of the snapshots searched here */
  private readonly searchingThreads: number;
  private nextKey = 1;
  private nextId = 1;
  private stopped = false;

  private readonly embedder: EmbedderConfig;
  private readonly logger: Logger;
  constructor(count: number, embedder: EmbedderConfig, logger: Logger) {
    this.embedder = embedder;
    this.logger = logger;
    this.searchingThreads = count + 1;
    this.threads = Array.from({ length: count }, (_, i) => this.start(i + 1));
  }

  /** searchProviders on the least busy thread with room, else on this thread at once. */
  readonly search: Searcher = (snapshot, request) => {
    const key = this.keyOf(snapshot);
    for (const t of this.threads) if (t) this.takeAnswers(t);
    const thread = this.withRoom(key);
    if (!thread) return searchProviders(snapshot, request);
    const id = this.nextId++;
    return new Promise<SearchResult>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.send({ kind: 'search', id, key, request });
    });
  };

  /** The thread's answers that have arrived, taken now rather than in a later turn of the event loop. */
  private takeAnswers(thread: SearchThread): void {
    for (let m = receiveMessageOnPort(thread.answers); m; m = receiveMessageOnPort(thread.answers)) this.answered(thread, m.message as SearchAnswer);
  }

  /** The least busy thread that has the snapshot open and holds fewer than PER_THREAD searches. */
  private withRoom(key: number): SearchThread | undefined {
    let chosen: SearchThread | undefined;
    for (const t of this.threads) {
      if (t && t.open.has(key) && t.pending.size < PER_THREAD && (!chosen || t.pending.size < chosen.pending.size)) chosen = t;
    }
    return chosen;
  }

  /** Ends every thread (after the server drained: no search is running). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.threads.map((t) => t?.worker.terminate()));
    for (const t of this.threads) t?.answers.close();
  }

  /** The snapshot's key; on first sight every thread is asked to open it. */
  private keyOf(snapshot: Snapshot): number {
    let key = this.keys.get(snapshot);
    if (key !== undefined) return key;
    if (snapshot.searchingThreads !== this.searchingThreads) {
      throw new Error(`snapshot opened for ${snapshot.searchingThreads} searching threads, this process runs ${this.searchingThreads}`);
    }
    key = this.nextKey++;
    this.keys.set(snapshot, key);
    this.snapshots.set(key, snapshot);
    const opened = this.openMessage(snapshot, key);
    this.openMessages.set(key, opened);
    for (const thread of this.threads) if (thread) this.askToOpen(thread, opened);
    snapshot.listCaches.publish = (cache, budget, listKey, value, cost) => this.share({ kind: 'list', key, cache, budget, listKey, value, cost }, undefined);
    snapshot.listCaches.publishAll();
    snapshot.onClose(() => {
      this.snapshots.delete(key);
      this.openMessages.delete(key);
      for (const thread of this.threads) if (thread) this.forget(thread, key);
    });
    return key;
  }

  private openMessage(snapshot: Snapshot, key: number): Extract<ToSearchThread, { kind: 'open' }> {
    const index = snapshot.meta.embedderDims > 0 ? sharedVectorIndex(vectorIndex(snapshot)) : null;
    return { kind: 'open', key, file: snapshot.file, snapshotId: snapshot.id, vectorIndex: index, columns: publishedColumns(snapshot) };
  }

  private askToOpen(thread: SearchThread, message: Extract<ToSearchThread, { kind: 'open' }>): void {
    thread.opening.add(message.key);
    thread.send(message);
  }

  private forget(thread: SearchThread, key: number): void {
    thread.open.delete(key);
    thread.opening.delete(key);
    thread.send({ kind: 'close', key });
  }

  private start(slot: number): SearchThread {
    const setup = { embedder: this.embedder, searchingThreads: this.searchingThreads, slot };
    return new SearchThread(
      setup,
      (t, m) => this.received(t, m),
      (t, m) => this.answered(t, m),
      (t, reason) => this.died(t, slot, reason),
    );
  }

  /** A list to every thread that has the snapshot open or is opening it, but `from`. */
  private share(list: SharedList, from: SearchThread | undefined): void {
    for (const thread of this.threads) if (thread && thread !== from && (thread.open.has(list.key) || thread.opening.has(list.key))) thread.send(list);
  }

  private received(thread: SearchThread, m: FromSearchThread): void {
    if (m.kind === 'list') {
      this.snapshots.get(m.key)?.listCaches.adopt(m.cache, m.budget, m.listKey, m.value, m.cost);
      // A new list goes back to its thread too, now on shared memory, in place of the thread's own copy.
      this.share(m, m.value === null ? thread : undefined);
      return;
    }
    if (m.kind === 'opened') {
      if (!thread.opening.delete(m.key)) return; // closed meanwhile
      const snapshotId = this.openMessages.get(m.key)?.snapshotId;
      if (m.ok) {
        thread.open.add(m.key);
        this.logger.info({ snapshotId, thread: thread.slot }, 'search thread opened the snapshot');
      } else {
        this.logger.warn({ snapshotId, thread: thread.slot, reason: m.reason }, 'search thread could not open the snapshot; the other threads search it');
      }
    }
  }

  private answered(thread: SearchThread, m: SearchAnswer): void {
    const call = thread.pending.get(m.id);
    if (!call) return;
    thread.pending.delete(m.id);
    if (m.kind === 'result') call.resolve({ ...m.result, items: m.result.items.map((hit) => ({ ...hit, summary: toBusinessSummary(hit.row) })) });
    else if (m.error.code) call.reject(new ApiError(m.error.code, m.error.message, m.error.headers));
    else call.reject(new Error(`search thread: ${m.error.message}`));
  }

  private died(thread: SearchThread, slot: number, reason: string): void {
    if (this.threads[slot - 1] !== thread) return; // 'error' and 'exit' both report one death
    this.threads[slot - 1] = undefined;
    thread.answers.close();
    for (const call of thread.pending.values()) call.reject(new Error(`search thread ${slot} ${reason}`));
    if (this.stopped) return;
    this.logger.error({ thread: slot, reason }, 'search thread died; starting a new one');
    setTimeout(() => {
      if (this.stopped) return;
      const fresh = this.start(slot);
      this.threads[slot - 1] = fresh;
      for (const message of this.openMessages.values()) this.askToOpen(fresh, message);
    }, RESTART_AFTER_MS).unref();
  }
}
