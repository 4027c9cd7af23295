/**
 * Slow parts, over HTTP against the real server: an external embedder (a small
 * OpenAI-compatible service in this process) that holds chosen query embeddings
 * until the test lets them go, and a client that sends its headers one byte at
 * a time.
 * - Searches waiting on the embedder keep their snapshot through a hot swap and
 *   answer from it in full (the swapped-out snapshot is closed only when its
 *   last request has finished: reference counting, no timer).
 * - SEARCH_MAX_IN_FLIGHT searches at once; one more is 503 SERVICE_UNAVAILABLE
 *   with Retry-After, at once (no queue).
 * - A client trickling its headers is answered 408 REQUEST_TIMEOUT (the
 *   envelope) and cut off after HTTP_HEADERS_TIMEOUT_MS.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { editDataset } from '../ops/dataset-edits.ts';
import { generate, healthId, runScript, startNode, waitFor, workspace, type Node } from '../resilience/fixture.ts';
import { recordFigures } from './fixture.ts';

const DIMS = 16;
const HELD_WORD = 'lambat';

let ws = '';
let node: Node;
let live = '';
let dsB = '';
let embedderEnv: Record<string, string> = {};
let embedder: http.Server;
const held: (() => void)[] = [];

/** A deterministic vector per text; texts with HELD_WORD wait until released. */
function vectorOf(text: string): number[] {
  const digest = crypto.createHash('sha256').update(text).digest();
  return Array.from({ length: DIMS }, (_, i) => digest[i]! / 255 - 0.5);
}

beforeAll(async () => {
  embedder = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += String(d)));
    req.on('end', () => {
      const { input } = JSON.parse(raw) as { input: string[] };
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: input.map((text, index) => ({ embedding: vectorOf(text), index })) }));
      };
      if (input.some((t) => t.includes(HELD_WORD))) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  embedderEnv = { EMBEDDER_URL: `http://127.0.0.1:${(embedder.address() as net.AddressInfo).port}`, EMBEDDER_MODEL: 'fault-test' };

  ws = workspace('faults-slow');
  const dsA = await generate(path.join(ws, 'dsA'), 120, 41);
  dsB = path.join(ws, 'dsB');
  editDataset(dsA, dsB, { update: 1, remove: 0, add: 1 });
  live = path.join(ws, 'live', 'directory.db');
  fs.mkdirSync(path.dirname(live));
  const built = await runScript('db-build', ['--input', dsA, '--out', live], embedderEnv);
  expect(built.code, built.stderr).toBe(0);
  node = await startNode({
    ...embedderEnv,
    DIRECTORY_DB: live,
    KEYS_DB: path.join(ws, 'keys.db'),
    SEARCH_MAX_IN_FLIGHT: '2',
    API_RESPONSE_CACHE_MB: '0',
    HTTP_HEADERS_TIMEOUT_MS: '1500',
    LOG_LEVEL: 'warn',
    ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs'),
  });
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await node?.stop();
  await new Promise((resolve) => embedder?.close(resolve));
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

async function search(q: string) {
  const r = await fetch(`${node.url}/api/v1/search?q=${encodeURIComponent(q)}&limit=3`);
  return { status: r.status, snapshotId: r.headers.get('x-snapshot-id'), retryAfter: r.headers.get('retry-after'), body: (await r.json()) as { data?: unknown[]; error?: { code: string } } };
}

it('keeps a search waiting on the embedder on its snapshot through a hot swap; one search past the cap is 503 at once', async () => {
  const idA = await healthId(node.url);
  const slow = [search(`jasa website ${HELD_WORD} satu`), search(`toko online ${HELD_WORD} dua`)];
  await waitFor('both searches to wait on the embedder', async () => (held.length === 2 ? true : undefined));

  const third = await search('aplikasi mobile');
  expect(third.status).toBe(503);
  expect(third.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/searches/), details: null } });
  expect(third.retryAfter).toBe('1');

  const build = await runScript('db-build', ['--input', dsB, '--out', live], embedderEnv);
  expect(build.code, build.stderr).toBe(0);
  const idB = await waitFor('the swap', async () => {
    const id = await healthId(node.url);
    return id !== idA ? id : undefined;
  });

  for (const release of held.splice(0)) release();
  const answers = await Promise.all(slow);
  for (const a of answers) {
    expect(a.status).toBe(200);
    expect(a.snapshotId).toBe(idA);
    expect(a.body.data!.length).toBeGreaterThan(0);
  }
  const after = await search('aplikasi mobile');
  expect(after.status).toBe(200);
  expect(after.snapshotId).toBe(idB);
  recordFigures('slow searches across a hot swap', { heldSearches: 2, answeredFromOldSnapshot: answers.length, overCapAnswer: third.status });
});

it('answers a client that trickles its headers with 408 and closes the connection', async () => {
  const { port } = new URL(node.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  let closed = false;
  socket.on('data', (d) => (received += String(d)));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  const header = `GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(200)}`;
  let sent = 0;
  while (!closed && sent < header.length) {
    socket.write(header[sent++]!);
    await new Promise((r) => setTimeout(r, 100));
  }
  socket.destroy();
  expect(closed).toBe(true);
  expect(sent).toBeLessThan(header.length); // cut off long before the client was done
  expect(received).toMatch(/^HTTP\/1\.1 408 /);
  expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
  recordFigures('slowloris (headers one byte per 100 ms, HTTP_HEADERS_TIMEOUT_MS=1500)', { bytesSentBeforeCut: sent, headerBytes: header.length, status: 408 });
});
