/**
 * Search with an external embedder that misbehaves, end to end: a tiny
 * OpenAI-compatible /v1/embeddings server (node:http) in this test, a snapshot
 * built through it, and the real server (scripts/serve.ts) configured for it.
 * Checked over HTTP: query and document prefixes reach the service, query vectors
 * are cached, and when the service fails or is too slow the answer comes from
 * the keyword side with meta.vectorSide "unavailable" (200, not cached), then
 * the vector side comes back once the service does.
 */
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { HttpEmbedder } from '../../src/snapshot/embedder-http.ts';
import { startServe, type ServerProcess } from '../support/serve.ts';

const DIMS = 8;
type Mode = 'ok' | 'fail' | 'slow';
let mode: Mode = 'ok';
const inputs: string[] = [];

/** Letter counts folded into DIMS buckets: deterministic, and texts sharing letters are near. */
const embedding = (text: string) => {
  const v = new Array<number>(DIMS).fill(0);
  for (const ch of text.toLowerCase()) v[ch.charCodeAt(0) % DIMS]! += 1;
  return v;
};

let embedServer: Server;
let embedUrl: string;
let dir: string;
let server: ServerProcess;
let timer: NodeJS.Timeout | undefined;

beforeAll(async () => {
  embedServer = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const { input } = JSON.parse(raw) as { input: string[] };
    inputs.push(...input);
    if (mode === 'fail') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
    const answer = () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: embedding(t) })) }));
    if (mode === 'slow') timer = setTimeout(answer, 1_500);
    else answer();
  });
  // Longer than any pause of the build between two batches: a client reusing a socket the server just
  // closed gets ECONNRESET (a keep-alive race of the test's server, not the behaviour under test).
  embedServer.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => embedServer.listen(0, '127.0.0.1', resolve));
  embedUrl = `http://127.0.0.1:${(embedServer.address() as AddressInfo).port}`;

  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'external-embedder-'));
  const dbFile = path.join(dir, 'directory.db');
  const embedder = await HttpEmbedder.connect({ url: embedUrl, model: 'letters', documentPrefix: 'passage: ' });
  await buildSnapshot({ inputDir: 'tests/fixtures/dataset-mini', outFile: dbFile, embedder });
  server = await startServe({
    DIRECTORY_DB: dbFile,
    KEYS_DB: path.join(dir, 'keys.db'),
    API_RESPONSE_CACHE_MB: '0', // every request reaches search, so the embedder's cache is what is tested
    EMBEDDER_URL: embedUrl,
    EMBEDDER_MODEL: 'letters',
    EMBEDDER_QUERY_PREFIX: 'query: ',
    EMBEDDER_DOCUMENT_PREFIX: 'passage: ',
    EMBEDDER_QUERY_TIMEOUT_MS: '300',
    EMBEDDER_RETRY_AFTER_MS: '400',
  });
}, 120_000);

afterAll(async () => {
  clearTimeout(timer);
  await server?.stop();
  await new Promise<void>((resolve) => (embedServer ? embedServer.close(() => resolve()) : resolve()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function search(q: string) {
  const response = await fetch(`${server.url}/api/v1/search?q=${encodeURIComponent(q)}&limit=5`);
  return { status: response.status, headers: response.headers, body: (await response.json()) };
}
const asked = (q: string) => inputs.filter((i) => i === `query: ${q}`).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an external embedder behind search', () => {
  it('documents were embedded with the document prefix', () => {
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((i) => !i.startsWith('passage: ') && i !== 'dimension probe')).toEqual([]);
  });

  it('a healthy service: hybrid answer, the query sent with its prefix once, then served from the cache', async () => {
    const first = await search('website toko online');
    expect(first.status).toBe(200);
    expect(first.body.meta.vectorSide).toBeUndefined();
    expect(first.body.meta.rrf.vectorCandidates).toBeGreaterThan(0);
    const again = await search('website toko online');
    expect(again.body.data.map((d: any) => d.slug)).toEqual(first.body.data.map((d: any) => d.slug));
    expect(asked('website toko online')).toBe(1);
  });

  it('a slow service: keyword-only answer within the timeout, said in meta, not cacheable', async () => {
    mode = 'slow';
    const r = await search('aplikasi android');
    expect(r.status).toBe(200);
    expect(r.body.meta.vectorSide).toBe('unavailable');
    expect(r.body.meta.rrf.vectorCandidates).toBe(0);
    expect(r.body.meta.rrf.keywordCandidates).toBeGreaterThan(0);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.headers.get('cache-control')).toMatch(/no-store/);
    expect(r.headers.get('etag')).toBeNull();
    expect(asked('aplikasi android')).toBe(1);
    // Paused after the failure: the next query does not wait for the service.
    const paused = await search('jasa seo');
    expect(paused.body.meta.vectorSide).toBe('unavailable');
    expect(asked('jasa seo')).toBe(0);
  });

  it('a failing service: keyword-only answer, also on the AI-free list endpoint; back to hybrid when it recovers', async () => {
    await sleep(500);
    mode = 'fail';
    const r = await search('desain logo');
    expect(r.status).toBe(200);
    expect(r.body.meta.vectorSide).toBe('unavailable');
    expect(asked('desain logo')).toBe(1);
    const list = await fetch(`${server.url}/api/v1/providers?q=desain`).then((x) => x.json());
    expect(list.meta.vectorSide).toBe('unavailable');

    await sleep(500);
    mode = 'ok';
    const back = await search('desain logo');
    expect(back.body.meta.vectorSide).toBeUndefined();
    expect(back.body.meta.rrf.vectorCandidates).toBeGreaterThan(0);
  });
});
