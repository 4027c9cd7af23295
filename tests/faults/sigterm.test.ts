/**
 * SIGTERM while 50 keep-alive clients search: every request the server accepted
 * gets its full answer (the drain answers requests arriving on open connections
 * with `Connection: close` instead of resetting them), the process exits 0, and
 * the only requests without an answer are new connections refused after the
 * server stopped listening. "Accepted" is read from the server's debug log,
 * which names every request it received (a new connection still in the kernel's
 * backlog when the node stops listening is reset without ever being received).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { generate, startNode, workspace, type Node } from '../resilience/fixture.ts';
import { answersPast, recordFigures, startLoad, summary } from './fixture.ts';

let ws = '';
let node: Node;

beforeAll(async () => {
  ws = workspace('faults-sigterm');
  const data = await generate(path.join(ws, 'data'), 150, 5);
  const live = path.join(ws, 'directory.db');
  await buildSnapshot({ inputDir: data, outFile: live });
  node = await startNode({ DIRECTORY_DB: live, KEYS_DB: path.join(ws, 'keys.db'), LOG_LEVEL: 'debug', ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs') });
});

afterAll(async () => {
  await node?.stop('SIGKILL');
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('answers every accepted request in full after SIGTERM under 50 connections, then exits 0', async () => {
  const paths = ['/api/v1/search?q=website', '/api/v1/providers?limit=5', '/api/v1/categories', '/healthz'];
  const load = startLoad(node.url, 50, (w, n) => ({
    path: n % 4 === 0 ? `/api/v1/search?q=toko+${w}+${n}` : paths[n % paths.length]!,
    headers: { 'x-request-id': `w${w}-${n}` },
  }));
  await answersPast(load, 2000);
  const code = await node.stop('SIGTERM');
  const figures = await load.stop();
  expect(code).toBe(0);
  const received = new Set(node.logs().filter((l) => l.msg === 'request received').map((l) => String(l.requestId)));
  const answered = new Set(node.logs().filter((l) => l.msg === 'request').map((l) => String(l.requestId)));
  // A request written on an open keep-alive connection must be answered (the old drain reset one per connection)...
  expect(figures.failures - figures.failedOnNewConnection.length, figures.errorSamples.join('\n')).toBe(0);
  // ...and one on a new connection must be, once the server received it.
  expect(figures.failedOnNewConnection.filter((id) => received.has(id)), figures.errorSamples.join('\n')).toEqual([]);
  expect([...received].filter((id) => !answered.has(id))).toEqual([]);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  // Every connection's last request was answered with Connection: close; reconnecting was refused.
  expect(figures.refused).toBe(50);
  recordFigures('SIGTERM under 50 keep-alive connections', { ...summary(figures), failedOnNewConnectionNeverReceived: figures.failedOnNewConnection.length, received: received.size });
});
