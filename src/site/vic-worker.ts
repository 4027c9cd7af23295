/**
 * Worker thread body: writes the build's VIC cards (vic-files.ts) on its own
 * read-only connection while the main thread renders the pages, so the cards take
 * the second core instead of adding their time to the build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Snapshot } from '../query/snapshot.ts';
import { writeVicCards } from './vic-files.ts';

export interface VicWorkerInput {
  dbFile: string;
  clientDir: string;
  webUrl: string;
  apiUrl: string;
}

const input = workerData as VicWorkerInput;
const snapshot = new Snapshot(input.dbFile);
try {
  const cards = writeVicCards(snapshot, input.clientDir, { webUrl: input.webUrl, apiUrl: input.apiUrl });
  parentPort!.postMessage({ cards });
} finally {
  snapshot.close();
}
