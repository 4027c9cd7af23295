/**
 * SEARCH_THREADS > 0: searches also run on worker threads of this process, so one
 * server process uses more than one core without holding the snapshot's big
 * structures twice (docs/architecture.md, "Search threads").
 *
 * Dispatch: searches start in the order their requests were read (a FIFO). The
 * oldest goes to the least busy thread that has the request's snapshot open and
 * holds fewer than PER_THREAD searches; when no thread has room, the main thread
 * runs the oldest itself, one per turn of its event loop (setImmediate), so the
 * loop reads the requests that arrived meanwhile before the next one starts and
 * queues them behind the older ones. Running every search of a turn at once
 * instead answered in the order the loop happened to read them: a request read
 * late in one turn and one read early in the next were a whole turn apart, and
 * under 50 busy connections the client's p99 was twice its mean (bench/results,
 * "The session of 2026-11-29 00:25"). Before each choice the main thread takes
 * the answers that have arrived (receiveMessageOnPort on each thread's answers
 * port), so a thread that finished gets the next search without waiting for the
 * turn to end.
 *
 * The search gate (SEARCH_MAX_IN_FLIGHT) counts a search from its start to its
 * answer: a search waiting in the FIFO holds a request read from its socket and
 * nothing more, as a request not yet read does, and the FIFO is as long as the
 * requests the loop has read; a search that starts with the gate full is refused
 * at once (503).
 *
 * Snapshots: the first search of a snapshot asks every thread to open the same
 * file (search-worker.ts); a thread answers only from the snapshot whose id the
 * main thread opened, and the main thread sends a search only to a thread that
 * confirmed it, so answers of two snapshots never mix. The main thread's request
 * holds its snapshot lease (snapshot-leases.ts) until the thread's answer is
 * back, so a swapped-out snapshot closes, and the threads close their connection
 * to it, only when no search of it runs anywhere.
 *
 * A thread that dies is logged once (its own error and stack, or its exit code)
 * and replaced after a second; the searches it held start again, ahead of the
 * others, on another thread or the main thread, and are answered as if nothing
 * happened. stop() lets the threads answer what they hold before ending them.
 */
import { receiveMessageOnPort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { EmbedderConfig } from '../env.ts';
import { toBusinessSummary } from '../query/projections.ts';
import { publishedColumns } from '../query/published-columns.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { searchProviders, type SearchRequest, type SearchResult } from '../search/search.ts';
import { sharedVectorIndex, vectorIndex } from '../search/vector-index.ts';
import { ApiError } from './errors.ts';
import type { SearchGate } from './search-gate.ts';
import { SearchThread, type Search, type ThreadDeath } from './search-thread.ts';
import type { FromSearchThread, SearchAnswer, SharedList, ToSearchThread } from './search-thread-messages.ts';

const RESTART_AFTER_MS = 1_000;
/** Searches a thread holds at once: one running, one waiting, so it never waits for the main thread's turn to end. */
const PER_THREAD = 2;
/**
 * How long stop() lets the threads answer what they hold. The drain (src/server/drain.ts)
 * is over once every connection is closed, and a client that closed its own still has its
 * search running here: ending a thread under it was the "search thread exited with 1" at
 * shutdown, with its searches failed as internal errors.
 */
const STOP_WAIT_MS = 10_000;

export type Searcher = (snapshot: Snapshot, request: SearchRequest) => Promise<SearchResult>;

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
  /** searches read and not yet started, oldest first */
  private readonly waiting: Search[] = [];
  /** a turn of the main thread's own is asked for (setImmediate) */
  private turnAsked = false;

  private readonly embedder: EmbedderConfig;
  private readonly gate: SearchGate;
  private readonly logger: Logger;
  constructor(count: number, embedder: EmbedderConfig, gate: SearchGate, logger: Logger) {
    this.embedder = embedder;
    this.gate = gate;
    this.logger = logger;
    this.searchingThreads = count + 1;
    this.threads = Array.from({ length: count }, (_, i) => this.start(i + 1));
  }

  /** searchProviders, started after every search read before it: on a thread with room, else on this thread in a turn of its own. */
  readonly search: Searcher = (snapshot, request) => {
    const key = this.keyOf(snapshot);
    return new Promise<SearchResult>((resolve, reject) => {
      this.waiting.push({ snapshot, key, request, resolve, reject });
      this.dispatch();
      this.askForTurn();
    });
  };

  /**
   * Hands the oldest waiting searches to threads with room, while there is one. A
   * search sent to a thread holds a slot of the gate until its answer is taken
   * (answered, died), so the gate counts what runs, not what has run.
   */
  private dispatch(): void {
    for (const t of this.threads) if (t) this.takeAnswers(t);
    for (let next = this.waiting[0]; next; next = this.waiting[0]) {
      const thread = this.withRoom(next.key);
      if (!thread) return;
      this.waiting.shift();
      try {
        this.gate.enter();
      } catch (err) {
        next.reject(err as Error);
        continue;
      }
      const id = this.nextId++;
      thread.pending.set(id, next);
      thread.send({ kind: 'search', id, key: next.key, request: next.request });
    }
  }

  private askForTurn(): void {
    if (this.turnAsked || this.waiting.length === 0) return;
    this.turnAsked = true;
    setImmediate(this.ownTurn);
  }

  /** No thread has room: this thread runs the oldest search, then lets the loop read again. */
  private readonly ownTurn = (): void => {
    this.turnAsked = false;
    this.dispatch();
    const oldest = this.waiting.shift();
    if (oldest) this.gate.run(() => searchProviders(oldest.snapshot, oldest.request)).then(oldest.resolve, oldest.reject);
    this.askForTurn();
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
    const deadline = Date.now() + STOP_WAIT_MS;
    while (!this.idle() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all(this.threads.map((t) => t?.worker.terminate()));
    for (const t of this.threads) t?.answers.close();
  }

  /** No search waits for its turn or runs on a thread. */
  private idle(): boolean {
    return this.waiting.length === 0 && this.threads.every((t) => !t || t.pending.size === 0);
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
      (t, m) => {
        // an answer seen at the start of a turn: the thread has room for the oldest waiting search
        this.answered(t, m);
        this.dispatch();
      },
      (t, death) => this.died(t, slot, death),
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
    this.gate.leave();
    if (m.kind === 'result') call.resolve({ ...m.result, items: m.result.items.map((hit) => ({ ...hit, summary: toBusinessSummary(hit.row) })) });
    else if (m.error.code) call.reject(new ApiError(m.error.code, m.error.message, m.error.headers));
    else call.reject(new Error(`search thread: ${m.error.message}`));
  }

  /**
   * A thread ended: the searches it held start again, oldest first and ahead of every
   * other, on another thread or on this one; one whose thread dies a second time fails
   * (it may be what kills them). The death is logged once, with the thread's own error.
   */
  private died(thread: SearchThread, slot: number, death: ThreadDeath): void {
    if (this.threads[slot - 1] !== thread) return; // 'error' and 'exit' both report one death
    this.takeAnswers(thread); // answered before it ended: nothing to run again
    this.threads[slot - 1] = undefined;
    thread.answers.close();
    const held = [...thread.pending.values()];
    thread.pending.clear();
    for (let i = 0; i < held.length; i++) this.gate.leave();
    const again = held.filter((search) => !search.rerun);
    for (const search of held) {
      if (search.rerun) search.reject(new Error(`search thread ${slot} ${death.reason}; the search had run on a thread that died before`));
      search.rerun = true;
    }
    this.waiting.unshift(...again);
    this.dispatch();
    this.askForTurn();
    if (this.stopped) return;
    this.logger.error({ thread: slot, reason: death.reason, stack: death.stack, searchesRunAgain: again.length }, 'search thread died; its searches run again, and a new thread starts');
    setTimeout(() => {
      if (this.stopped) return;
      const fresh = this.start(slot);
      this.threads[slot - 1] = fresh;
      for (const message of this.openMessages.values()) this.askToOpen(fresh, message);
    }, RESTART_AFTER_MS).unref();
  }
}
