/**
 * Worker thread body: writes the build's VIC cards (vic-files.ts) on its own
 * read-only connection while the main thread renders the pages, so the cards take
 * the second core instead of adding their time to the build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Snapshot } from '../query/snapshot.ts';
import { writeVicCards } from './vic-files.ts';
import { loadRenderScope, type RenderScopeSettings } from './render-scope.ts';

export interface VicWorkerInput {
  dbFile: string;
  clientDir: string;
  webUrl: string;
  apiUrl: string;
  /** the build's render scope settings (a worker is its own edge: it gets them from the thread that started it) */
  scope: RenderScopeSettings;
}

const input = workerData as VicWorkerInput;
const snapshot = new Snapshot(input.dbFile);
try {
  const cards = writeVicCards(snapshot, input.clientDir, { webUrl: input.webUrl, apiUrl: input.apiUrl }, loadRenderScope(input.scope));
  parentPort!.postMessage({ cards });
} finally {
  snapshot.close();
}
