/**
 * The search threads' dispatch (src/server/search-threads.ts): searches start
 * oldest first, the main thread running one per turn of its event loop when no
 * thread has room; the search gate counts started searches, not waiting ones. A
 * search thread that dies: the death is logged, the main thread answers
 * meanwhile, and a new thread opens the live snapshot and answers as before. Run
 * in process on the API fixture's snapshot, with real worker threads.
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Snapshot } from '../../src/query/snapshot.ts';
import { searchProviders, type SearchRequest } from '../../src/search/search.ts';
import { servingSteps } from '../../src/search/warm.ts';
import { ApiError } from '../../src/server/errors.ts';
import { SearchGate } from '../../src/server/search-gate.ts';
import { SearchThreads } from '../../src/server/search-threads.ts';
import { buildFixture, type Fixture } from '../http/fixture.ts';
import { DIE_ON_NEXT_ANSWER, evaluateInWorker, inProcessDevTools } from '../support/worker-inspector.ts';
import { waitFor } from './fixture.ts';

let fixture: Fixture;
let snapshot: Snapshot;
let threads: SearchThreads;
const logs: { msg: string; snapshotId?: string; thread?: number; reason?: string }[] = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(line: Buffer, _enc, done) {
      logs.push(JSON.parse(String(line)) as { msg: string });
      done();
    },
  }),
);

const request: SearchRequest = { query: 'jasa aplikasi', filters: {}, sort: 'relevance', page: 1, limit: 5 };
const opened = () => logs.filter((l) => l.msg === 'search thread opened the snapshot' && l.snapshotId === snapshot.id).length;

beforeAll(async () => {
  fixture = await buildFixture();
  snapshot = new Snapshot(fixture.dbFile, { kind: 'builtin' }, 2);
  for (const step of servingSteps(snapshot)) step.run();
  // room for the two searches a thread holds and one on the main thread
  threads = new SearchThreads(1, { kind: 'builtin' }, new SearchGate(3), logger);
});

afterAll(async () => {
  await threads?.stop();
  snapshot?.close();
  if (fixture) fs.rmSync(fixture.dir, { recursive: true, force: true });
});

it('refuses a snapshot opened for another number of threads', () => {
  const single = new Snapshot(fixture.dbFile);
  try {
    expect(() => threads.search(single, request)).toThrow(/searching threads/);
  } finally {
    single.close();
  }
});

it('runs the oldest search on the main thread, one per turn of its event loop, while no thread has the snapshot open', async () => {
  const order: string[] = [];
  // the snapshot's first searches: the thread is only asked to open it
  const searches = ['jasa', 'aplikasi', 'website'].map((q) => threads.search(snapshot, { ...request, query: q }).then(() => order.push(q)));
  setImmediate(() => order.push('turn'));
  await Promise.all(searches);
  expect(order).toEqual(['jasa', 'turn', 'aplikasi', 'website']);
});

it('answers as searchProviders does, before and after its thread dies', async () => {
  const reference = await searchProviders(snapshot, request);
  expect(reference.items.length).toBeGreaterThan(0);
  // the first search of a snapshot runs on the main thread and asks the thread to open it
  expect(await threads.search(snapshot, request)).toEqual(reference);
  await waitFor('the thread to open the snapshot', async () => (opened() === 1 ? true : undefined));
  expect(await threads.search(snapshot, request)).toEqual(reference);

  // 40 at once under a cap of 3: the waiting ones are not counted, none is refused
  const many = await Promise.all(Array.from({ length: 40 }, () => threads.search(snapshot, request)));
  for (const answer of many) expect(answer).toEqual(reference);

  // An uncaught error in the thread while it holds searches: they run again and answer as before.
  const tools = inProcessDevTools();
  try {
    expect(await evaluateInWorker(tools, 'search-worker', DIE_ON_NEXT_ANSWER)).toMatch(/worker/i);
  } finally {
    tools.close();
  }
  const held = await Promise.all(Array.from({ length: 6 }, () => threads.search(snapshot, request)));
  for (const answer of held) expect(answer).toEqual(reference);
  await waitFor('the death to be logged', async () => (logs.some((l) => l.msg.startsWith('search thread died')) ? true : undefined));
  const deaths = logs.filter((l) => l.msg.startsWith('search thread died'));
  expect(deaths).toHaveLength(1);
  expect(deaths[0]).toMatchObject({ thread: 1, reason: 'search thread killed by the test', stack: expect.stringContaining('Error: search thread killed by the test') });
  expect((deaths[0] as { searchesRunAgain?: number }).searchesRunAgain).toBeGreaterThan(0);

  // meanwhile the main thread answers; then the new thread opens the snapshot again
  expect(await threads.search(snapshot, request)).toEqual(reference);
  await waitFor('the new thread to open the snapshot', async () => (opened() === 2 ? true : undefined));
  expect(await threads.search(snapshot, request)).toEqual(reference);
});

it('refuses at once a search that starts with the gate full', async () => {
  const capped = new SearchThreads(1, { kind: 'builtin' }, new SearchGate(1), logger);
  try {
    const before = opened();
    await capped.search(snapshot, request); // on the main thread; the thread opens the snapshot
    await waitFor('the capped thread to open the snapshot', async () => (opened() > before ? true : undefined));
    // the first goes to the thread; the thread has room for the second, which the gate refuses, and the third
    const settled = await Promise.allSettled([1, 2, 3].map(() => capped.search(snapshot, request)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const s of settled.slice(1)) expect(s.status === 'rejected' && s.reason instanceof ApiError && s.reason.code).toBe('SERVICE_UNAVAILABLE');
  } finally {
    await capped.stop();
  }
});
