/**
 * A search thread killed under 50 connections of long-tail searches, twice: once by
 * an uncaught error while it holds searches, once by exiting on its own (the real
 * server, scripts/serve.ts with SEARCH_THREADS=1, reached from outside through
 * Node's inspector: tests/support/worker-inspector.ts). Every request is answered
 * 200, none fails: the searches the thread held run again; each death is logged
 * once, with the thread's number and its own error and stack, or its exit code;
 * a new thread takes over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLongTailMix, longTailPath } from '../../bench/long-tail-queries.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { generate, startNode, waitFor, workspace, type Node } from '../resilience/fixture.ts';
import { DIE_ON_NEXT_ANSWER, evaluateInWorker, remoteDevTools } from '../support/worker-inspector.ts';
import { answersPast, recordFigures, startLoad, summary } from './fixture.ts';

const CONNECTIONS = 50;
let ws = '';
let node: Node;
let paths: string[] = [];

beforeAll(async () => {
  ws = workspace('faults-thread');
  const data = await generate(path.join(ws, 'data'), 200, 17);
  const db = path.join(ws, 'directory.db');
  await buildSnapshot({ inputDir: data, outFile: db });
  paths = buildLongTailMix(db, 20_000, 17).map(longTailPath);
  node = await startNode({
    DIRECTORY_DB: db,
    KEYS_DB: path.join(ws, 'keys.db'),
    SEARCH_THREADS: '1',
    LOG_LEVEL: 'warn',
    ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs'),
    NODE_OPTIONS: '--inspect=127.0.0.1:0',
  });
});

afterAll(async () => {
  await node?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

const deaths = () => node.logs().filter((l) => String(l.msg).startsWith('search thread died'));

/** Evaluates `expression` in the server's search thread, through the inspector it listens on (the last one printed: serve.ts may re-exec itself once). */
async function inSearchThread(expression: string): Promise<void> {
  const urls = [...node.output().matchAll(/Debugger listening on (ws:\/\/\S+)/g)].map((m) => m[1]!);
  const tools = await remoteDevTools(urls[urls.length - 1]!);
  try {
    await evaluateInWorker(tools, 'search-worker', expression);
  } finally {
    tools.close();
  }
}

it('answers every search while its search thread dies twice under 50 connections', async () => {
  let next = 0;
  const load = startLoad(node.url, CONNECTIONS, () => ({ path: paths[next++ % paths.length]! }));
  await answersPast(load, 1000);

  await inSearchThread(DIE_ON_NEXT_ANSWER);
  await waitFor('the first death in the log', async () => (deaths().length === 1 ? true : undefined));
  await new Promise((r) => setTimeout(r, 1500)); // the new thread starts a second later
  await answersPast(load, 1000);

  await inSearchThread('setImmediate(() => process.exit(7)), "exiting"');
  await waitFor('the second death in the log', async () => (deaths().length === 2 ? true : undefined));
  await new Promise((r) => setTimeout(r, 1500));
  await answersPast(load, 1000);
  const figures = await load.stop();

  expect(figures.failures, figures.errorSamples.join('\n')).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  const [first, second] = deaths();
  expect(first).toMatchObject({ level: 'error', thread: 1, reason: 'search thread killed by the test', stack: expect.stringContaining('Error: search thread killed by the test\n') });
  expect(Number(first!.searchesRunAgain)).toBeGreaterThan(0);
  expect(second).toMatchObject({ level: 'error', thread: 1, reason: 'exited with code 7' });
  expect(node.logs().filter((l) => l.level === 'error' && !String(l.msg).startsWith('search thread died'))).toEqual([]);
  recordFigures('a search thread killed twice under 50 connections', {
    ...summary(figures),
    searchesRunAgain: [first!.searchesRunAgain, second!.searchesRunAgain],
  });
});
