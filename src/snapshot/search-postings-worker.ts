/**
 * A worker thread that collects search_postings while the main thread inserts rows
 * (see search-postings-builder.ts): it receives batches of published providers' FTS
 * column texts, and on "finish" answers with the finished rows in batches whose
 * arrays are transferred, not copied, at most two ahead of the main thread's inserts.
 */
import { parentPort } from 'node:worker_threads';
import { PostingsAccumulator, type PostingRow } from './search-postings.ts';
import type { PostingsReply, PostingsRequest } from './search-postings-builder.ts';

const accumulator = new PostingsAccumulator();
const SEND_BYTES = 8 << 20;
// Batches sent but not yet inserted by the main thread: the sorted copies never pile up.
const MAX_IN_FLIGHT = 2;
// A worker file is its own entry point: this state belongs to this one thread (one build), nothing else reads it.
let finished: Generator<PostingRow> | undefined;
let inFlight = 0;

function reply(message: PostingsReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

/** Sends finished rows while fewer than MAX_IN_FLIGHT batches wait for the main thread. */
function pump(): void {
  while (finished && inFlight < MAX_IN_FLIGHT) {
    const batch: PostingRow[] = [];
    let bytes = 0;
    while (bytes < SEND_BYTES) {
      const next = finished.next();
      if (next.done) break;
      batch.push(next.value);
      bytes += next.value.rowids.byteLength * 2 + next.value.blockLast.byteLength * 3;
    }
    if (batch.length === 0) {
      finished = undefined;
      reply({ type: 'done', terms: accumulator.termCount, postings: accumulator.postings, ...accumulator.stats });
      return;
    }
    const transfer = batch.flatMap((row) => [row.rowids, row.impacts, row.blockLast, row.blockMax].map((a) => a.buffer as ArrayBuffer));
    reply({ type: 'rows', rows: batch }, transfer);
    inFlight++;
  }
}

parentPort!.on('message', (message: PostingsRequest) => {
  try {
    if (message.type === 'rows') {
      const { rowids, texts, columns } = message;
      for (let i = 0; i < rowids.length; i++) accumulator.add(rowids[i]!, texts.slice(i * columns, (i + 1) * columns));
      reply({ type: 'ack' });
      return;
    }
    if (message.type === 'finish') finished = accumulator.rows();
    else inFlight--; // 'taken'
    pump();
  } catch (error) {
    reply({ type: 'error', message: (error as Error).stack ?? String(error) });
  }
});
reply({ type: 'ready' });
