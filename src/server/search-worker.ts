/**
 * A search thread (SEARCH_THREADS, src/server/search-threads.ts): runs
 * `searchProviders` for the main thread. It opens each snapshot file itself
 * (read-only, its own SQLite connection), checks that the file still holds the
 * snapshot the main thread opened, and reads the vector index and the published
 * columns from the shared memory the main thread built (never a copy); the lists it
 * computes go to the main thread, which puts them on shared memory and sends them
 * back and to the other threads (src/query/list-caches.ts). Answers go
 * back as a structured clone of the SearchResult without the hits' summaries
 * (search-thread-messages.ts); an ApiError goes back as its
 * code and message, anything else as a message the main thread logs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Snapshot } from '../query/snapshot.ts';
import { searchProviders } from '../search/search.ts';
import { vectorIndexOn } from '../search/vector-index.ts';
import { servingSteps } from '../search/warm.ts';
import { ApiError } from './errors.ts';
import type { FromSearchThread, SearchAnswer, SearchThreadSetup, ToSearchThread } from './search-thread-messages.ts';

const { embedder, searchingThreads, slot, answers } = workerData as SearchThreadSetup;
const port = parentPort!;
const snapshots = new Map<number, Snapshot>();
const post = (message: FromSearchThread) => port.postMessage(message);
const answer = (message: SearchAnswer) => answers.postMessage(message);

function open(message: Extract<ToSearchThread, { kind: 'open' }>): void {
  const { key, file, snapshotId, vectorIndex, columns } = message;
  let snapshot: Snapshot | undefined;
  try {
    snapshot = new Snapshot(file, embedder, searchingThreads);
    // The file may have been replaced again since the main thread opened it: never answer from another snapshot.
    if (snapshot.id !== snapshotId) throw new Error(`the file now holds snapshot ${snapshot.id}, not ${snapshotId}`);
    snapshot.listCaches.publish = (cache, budget, listKey, value, cost) => post({ kind: 'list', key, cache, budget, listKey, value, cost });
    if (vectorIndex) snapshot.memo('vector-index', () => vectorIndexOn(vectorIndex, slot));
    snapshot.memo('published-columns', () => columns);
    for (const step of servingSteps(snapshot)) step.run();
  } catch (err) {
    // A thread that cannot open a snapshot leaves it to the others; dying here would only start
    // a new thread that fails the same way.
    snapshot?.close();
    return post({ kind: 'opened', key, ok: false, reason: (err as Error).message });
  }
  snapshots.set(key, snapshot);
  post({ kind: 'opened', key, ok: true });
  // No background warm-up here: the main thread's warmed lists arrive after this message (list-caches.ts).
}

async function search(message: Extract<ToSearchThread, { kind: 'search' }>): Promise<void> {
  const { id, key, request } = message;
  const snapshot = snapshots.get(key);
  try {
    if (!snapshot) throw new Error(`search thread ${slot} has no snapshot ${key} open`);
    const { items, meta } = await searchProviders(snapshot, request);
    answer({ kind: 'result', id, result: { meta, items: items.map(({ row, search }) => ({ row, search })) } });
  } catch (err) {
    const error = err instanceof ApiError ? { code: err.code, message: err.message, headers: err.headers } : { message: (err as Error).message };
    answer({ kind: 'failed', id, error });
  }
}

port.on('message', (message: ToSearchThread) => {
  if (message.kind === 'open') open(message);
  else if (message.kind === 'search') void search(message);
  else if (message.kind === 'list') snapshots.get(message.key)?.listCaches.adopt(message.cache, message.budget, message.listKey, message.value, message.cost);
  else {
    snapshots.get(message.key)?.close();
    snapshots.delete(message.key);
  }
});
