/**
 * Collects search_postings beside the row inserts, on a worker thread when one
 * starts (the main thread is busy with SQLite while the rows stream in; the second
 * core is free), else on the main thread:
 *
 *   const postings = await startPostingsBuilder(useWorker);
 *   postings.add(rowid, ftsColumnTexts);   // each published provider, in rowid order
 *   await postings.drain();                // now and then: bounds the worker's queue
 *   await postings.write(db);              // creates and fills search_postings, ends the worker
 *
 * The worker runs its TypeScript file as it is (Node strips the types), as the embedding pool's do.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { PostingsAccumulator, postingsTable, type Bm25Stats, type PostingRow } from './search-postings.ts';

export type PostingsRequest =
  | { type: 'rows'; rowids: Int32Array; texts: string[]; columns: number }
  | { type: 'finish' }
  | { type: 'taken' };
export type PostingsReply =
  | { type: 'ready' }
  | { type: 'ack' }
  | { type: 'rows'; rows: PostingRow[] }
  | { type: 'done' } & PostingsWritten
  | { type: 'error'; message: string };

/** What write() wrote, with the statistics of the documents added (snapshot_meta bm25_*). */
export interface PostingsWritten {
  terms: number;
  postings: number;
  documents: number;
  totalLength: number;
}

export interface PostingsBuilder {
  readonly threaded: boolean;
  add(rowid: number, columns: readonly string[]): void;
  drain(): Promise<void>;
  /** `frozen`: score with these statistics (frozen-stats.ts; the main thread's builder only). */
  write(db: Database.Database, frozen?: Bm25Stats): Promise<PostingsWritten>;
  close(): Promise<void>;
}

const BATCH_ROWS = 500;
// Batches posted but not yet taken in by the worker: a few MB of text at most.
const MAX_OUTSTANDING = 8;

export async function startPostingsBuilder(useWorker: boolean): Promise<PostingsBuilder> {
  if (useWorker) {
    try {
      return await workerBuilder();
    } catch (error) {
      process.emitWarning(`search postings on the main thread: worker thread failed to start (${(error as Error).message})`);
    }
  }
  return inThreadBuilder();
}

function inThreadBuilder(): PostingsBuilder {
  const accumulator = new PostingsAccumulator();
  return {
    threaded: false,
    add: (rowid, columns) => accumulator.add(rowid, columns),
    drain: async () => {},
    async write(db, frozen) {
      const insert = postingsTable(db);
      db.transaction(() => {
        for (const row of accumulator.rows(frozen)) insert(row);
      })();
      return { terms: accumulator.termCount, postings: accumulator.postings, ...accumulator.stats };
    },
    close: async () => {},
  };
}

async function workerBuilder(): Promise<PostingsBuilder> {
  const worker = new Worker(new URL('./search-postings-worker.ts', import.meta.url));
  let failure: Error | undefined;
  let closing = false;
  let outstanding = 0;
  let wake: (() => void) | undefined;
  const received: PostingRow[][] = [];
  let done: PostingsWritten | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PostingsReply) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'ack') outstanding--;
      else if (message.type === 'rows') received.push(message.rows);
      else if (message.type === 'done') done = { terms: message.terms, postings: message.postings, documents: message.documents, totalLength: message.totalLength };
      else failure ??= new Error(`search postings worker: ${message.message}`);
      notify();
    });
    const fail = (error: Error) => {
      failure ??= error;
      reject(error);
      notify();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!closing) fail(new Error(`search postings worker exited with code ${code}`));
    });
  });
  await ready;
  const next = () => new Promise<void>((resolve) => (wake = resolve));

  let rowids: number[] = [];
  let texts: string[] = [];
  let columns = 0;
  const post = () => {
    if (rowids.length === 0) return;
    const message: PostingsRequest = { type: 'rows', rowids: Int32Array.from(rowids), texts, columns };
    worker.postMessage(message, [message.rowids.buffer as ArrayBuffer]);
    outstanding++;
    rowids = [];
    texts = [];
  };
  return {
    threaded: true,
    add(rowid, cols) {
      columns = cols.length;
      rowids.push(rowid);
      for (const text of cols) texts.push(text);
      if (rowids.length >= BATCH_ROWS) post();
    },
    async drain() {
      while (outstanding > MAX_OUTSTANDING && !failure) await next();
      if (failure) throw failure;
    },
    async write(db, frozen) {
      if (frozen) throw new Error('frozen statistics are applied by the main thread\'s postings builder');
      post();
      worker.postMessage({ type: 'finish' } satisfies PostingsRequest);
      const insert = postingsTable(db);
      db.exec('BEGIN');
      for (;;) {
        if (failure) throw failure;
        for (let batch = received.shift(); batch; batch = received.shift()) {
          for (const row of batch) insert(row);
          worker.postMessage({ type: 'taken' } satisfies PostingsRequest);
        }
        if (done) break;
        await next();
      }
      db.exec('COMMIT');
      closing = true;
      await worker.terminate();
      return done;
    },
    async close() {
      closing = true;
      await worker.terminate();
    },
  };
}
