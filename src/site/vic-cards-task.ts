/**
 * Runs the VIC card writer (vic-files.ts) for a build: on a worker thread beside
 * the page rendering (vic-worker.ts, run as TypeScript by Node itself like the snapshot
 * builder's workers), or inline when no page rendering is under way to overlap with.
 */
import { Worker } from 'node:worker_threads';
import { Snapshot } from '../query/snapshot.ts';
import { loadRenderScope } from './render-scope.ts';
import { siteSettings } from './settings.ts';
import { appContext } from '../server/context.ts';
import { writeVicCards } from './vic-files.ts';
import type { VicWorkerInput } from './vic-worker.ts';

export interface VicCardsDone {
  cards: number;
  seconds: number;
}

function input(clientDir: string): VicWorkerInput {
  const s = siteSettings();
  const { renderScopeFile, renderManifestDir } = appContext().env;
  return { dbFile: s.directoryDb, clientDir, webUrl: s.webUrl, apiUrl: s.apiUrl, scope: { renderScopeFile, renderManifestDir } };
}

/** Starts the writer on a worker thread; the promise settles when every card is written. */
export function startVicCardsWorker(clientDir: string, workerFile: URL): Promise<VicCardsDone> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: input(clientDir) });
    let cards: number | undefined;
    worker.on('message', (m: { cards: number }) => (cards = m.cards));
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (code === 0 && cards !== undefined) resolve({ cards, seconds: (performance.now() - started) / 1000 });
      else reject(new Error(`the VIC card writer stopped with exit code ${code}`));
    });
  });
}

export function writeVicCardsInline(clientDir: string): VicCardsDone {
  const started = performance.now();
  const { dbFile, webUrl, apiUrl, scope } = input(clientDir);
  const snapshot = new Snapshot(dbFile);
  try {
    const cards = writeVicCards(snapshot, clientDir, { webUrl, apiUrl }, loadRenderScope(scope));
    return { cards, seconds: (performance.now() - started) / 1000 };
  } finally {
    snapshot.close();
  }
}
