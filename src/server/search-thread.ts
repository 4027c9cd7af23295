/**
 * One search thread as the main thread sees it (src/server/search-threads.ts runs
 * the dispatch): the worker, the snapshots it has open, the searches it holds and
 * the port its answers arrive on. The thread's side is search-worker.ts.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { SearchRequest, SearchResult } from '../search/search.ts';
import type { Snapshot } from '../query/snapshot.ts';
import type { FromSearchThread, SearchAnswer, SearchThreadSetup, ToSearchThread } from './search-thread-messages.ts';

/**
 * The thread's young generation (V8 let a worker's grow to 192 MB on the benchmark machine): a search
 * allocates little that outlives it (the lists it keeps are on shared memory, off the
 * heap), so a small nursery collects as cheaply and holds less of the process's memory.
 */
const YOUNG_GENERATION_MB = 8;

/** A search read and not yet answered: waiting for its turn, or held by a thread. */
export interface Search {
  snapshot: Snapshot;
  key: number;
  request: SearchRequest;
  resolve: (result: SearchResult) => void;
  reject: (err: Error) => void;
  /** true once a thread holding it died: it runs again once, never twice */
  rerun?: boolean;
}

/** Why a thread ended: its uncaught error (message and stack), or the exit code when it left without one. */
export interface ThreadDeath {
  reason: string;
  stack?: string | undefined;
}

export class SearchThread {
  readonly worker: Worker;
  readonly slot: number;
  /** snapshot keys this thread confirmed, and those it is opening */
  readonly open = new Set<number>();
  readonly opening = new Set<number>();
  /** searches sent and not yet answered, by id */
  readonly pending = new Map<number, Search>();
  /** where the thread's answers arrive: their own port, so the main thread can take them between two requests (receiveMessageOnPort) */
  readonly answers: MessagePort;
  constructor(
    setup: Omit<SearchThreadSetup, 'answers'>,
    onMessage: (thread: SearchThread, m: FromSearchThread) => void,
    onAnswer: (thread: SearchThread, m: SearchAnswer) => void,
    onDeath: (thread: SearchThread, death: ThreadDeath) => void,
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
    // An uncaught error arrives as 'error' and then 'exit' (code 1): the first one names the death.
    this.worker.on('error', (err: unknown) =>
      onDeath(this, err instanceof Error ? { reason: err.message, stack: err.stack } : { reason: `threw ${String(err)}` }),
    );
    this.worker.on('exit', (code) => onDeath(this, { reason: `exited with code ${code}` }));
  }

  send(message: ToSearchThread): void {
    this.worker.postMessage(message);
  }
}
