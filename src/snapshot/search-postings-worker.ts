/**
 * A worker thread that collects search_postings while the main thread inserts rows
 * (see search-postings-builder.ts): it receives batches of published providers' FTS
 * column texts, and on "finish" answers with the finished rows in batches whose
 * arrays are transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { PostingsAccumulator, type PostingRow } from './search-postings.ts';
import type { PostingsReply, PostingsRequest } from './search-postings-builder.ts';

const accumulator = new PostingsAccumulator();
const SEND_BYTES = 8 << 20;

function reply(message: PostingsReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

parentPort!.on('message', (message: PostingsRequest) => {
  try {
    if (message.type === 'rows') {
      const { rowids, texts, columns } = message;
      for (let i = 0; i < rowids.length; i++) accumulator.add(rowids[i]!, texts.slice(i * columns, (i + 1) * columns));
      reply({ type: 'ack' });
      return;
    }
    let batch: PostingRow[] = [];
    let bytes = 0;
    const send = () => {
      const transfer = batch.flatMap((row) => [row.rowids.buffer as ArrayBuffer, row.impacts.buffer as ArrayBuffer]);
      reply({ type: 'rows', rows: batch }, transfer);
      batch = [];
      bytes = 0;
    };
    for (const row of accumulator.rows()) {
      batch.push(row);
      bytes += row.rowids.byteLength * 2;
      if (bytes >= SEND_BYTES) send();
    }
    if (batch.length > 0) send();
    reply({ type: 'done', terms: accumulator.termCount, postings: accumulator.postings });
  } catch (error) {
    reply({ type: 'error', message: (error as Error).stack ?? String(error) });
  }
});
reply({ type: 'ready' });
