import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderMismatchError } from '../../src/snapshot/embedder.ts';
import { saveModel } from '../../src/snapshot/embedder-builtin.ts';
import { fitBuiltinEmbedder } from '../../src/snapshot/embedder-builtin-fit.ts';
import {
  assertEmbedderMatches,
  configuredEmbedderName,
  openQueryEmbedder,
} from '../../src/snapshot/embedder-config.ts';
import { EmbedderServiceError, embeddingsEndpoint, HttpEmbedder } from '../../src/snapshot/embedder-http.ts';
import { loadEnv } from '../../src/env.ts';

/** The embedder part of the settings (src/env.ts parses EMBEDDER_* with the rest). */
const embedderSettings = (variables: Record<string, string>) => loadEnv(variables).embedder;

const FAKE_DIMS = 6;

/** A deterministic, unnormalized fake embedding: letter counts folded into 6 buckets. */
function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_DIMS).fill(0);
  for (const ch of text.toLowerCase()) v[ch.charCodeAt(0) % FAKE_DIMS]! += 1;
  return v;
}

interface SeenRequest {
  url: string | undefined;
  authorization: string | undefined;
  body: { model: string; input: string[] };
}

let server: Server;
let baseUrl: string;
const seen: SeenRequest[] = [];

const readBody = async (req: IncomingMessage) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as SeenRequest['body'];
    seen.push({ url: req.url, authorization: req.headers.authorization, body });
    const first = body.input[0] ?? '';
    if (req.url !== '/v1/embeddings') return void res.writeHead(404).end('no such route');
    if (first === 'please fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model not loaded"}');
    if (first === 'please hang') return void setTimeout(() => res.writeHead(200).end('{}'), 2_000);
    if (first === 'please drop one') return void res.end(JSON.stringify({ data: [] }));
    if (first === 'please send garbage') return void res.end('<html>gateway</html>');
    // Answer in reverse order: clients must sort by index.
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('HTTP embedder against a local /v1/embeddings server', () => {
  it('discovers dims, batches, keeps order and L2-normalizes', async () => {
    const embedder = await HttpEmbedder.connect({ url: baseUrl, model: 'fake-embed', apiKey: 'sk-test', batchSize: 3 });
    expect(embedder.name).toBe('openai:fake-embed');
    expect(embedder.dims).toBe(FAKE_DIMS);
    seen.length = 0;
    const texts = ['toko online', 'aplikasi android', 'jasa seo', 'cloud', 'keamanan siber', 'desain ui', 'iklan'];
    const vectors = await embedder.embedDocuments(texts);
    expect(seen.map((r) => r.body.input.length)).toEqual([3, 3, 1]);
    expect(seen.every((r) => r.body.model === 'fake-embed' && r.authorization === 'Bearer sk-test')).toBe(true);
    vectors.forEach((v, i) => {
      const raw = fakeEmbedding(texts[i]!);
      const norm = Math.hypot(...raw);
      expect([...v].map((x) => x.toFixed(5))).toEqual(raw.map((x) => (x / norm).toFixed(5)));
    });
    const query = await embedder.embedQuery('toko online');
    expect([...query]).toEqual([...vectors[0]!]);
  });

  it('accepts the URL as a base, a /v1 base or the full endpoint', () => {
    expect(embeddingsEndpoint('http://h:1')).toBe('http://h:1/v1/embeddings');
    expect(embeddingsEndpoint('http://h:1/v1/')).toBe('http://h:1/v1/embeddings');
    expect(embeddingsEndpoint('http://h:1/v1/embeddings')).toBe('http://h:1/v1/embeddings');
  });

  it('fails with clear errors: HTTP status, timeout, wrong count, not JSON, wrong dims, unreachable', async () => {
    const embedder = await HttpEmbedder.connect({ url: baseUrl, model: 'fake-embed', dims: FAKE_DIMS, queryTimeoutMs: 300 });
    await expect(embedder.embedQuery('please fail')).rejects.toThrow(/HTTP 500: \{"error":"model not loaded"\}/);
    await expect(embedder.embedQuery('please fail')).rejects.toBeInstanceOf(EmbedderServiceError);
    await expect(embedder.embedQuery('please hang')).rejects.toThrow(/no answer within 300 ms/);
    await expect(embedder.embedQuery('please drop one')).rejects.toThrow(/sent 1 texts, got 0 embeddings/);
    await expect(embedder.embedQuery('please send garbage')).rejects.toThrow(/not JSON/);
    const wrongDims = await HttpEmbedder.connect({ url: baseUrl, model: 'fake-embed', dims: 384 });
    await expect(wrongDims.embedQuery('toko')).rejects.toThrow(/got a 6-dimension vector, expected 384/);
    const nowhere = await HttpEmbedder.connect({ url: 'http://127.0.0.1:9', model: 'm', dims: 4, queryTimeoutMs: 2_000 });
    await expect(nowhere.embedQuery('x')).rejects.toThrow(/embedding service http:\/\/127\.0\.0\.1:9\/v1\/embeddings .*unreachable/);
  });
});

describe('embedder configuration and the snapshot check', () => {
  it('reads EMBEDDER_* settings, defaulting to the built-in embedder', () => {
    expect(embedderSettings({})).toEqual({ kind: 'builtin' });
    expect(embedderSettings({ EMBEDDER_URL: '', EMBEDDER_MODEL: '' })).toEqual({ kind: 'builtin' });
    const config = embedderSettings({ EMBEDDER_URL: baseUrl, EMBEDDER_MODEL: 'nomic-embed-text', EMBEDDER_DIMS: '768' });
    expect(config).toEqual({
      kind: 'http', url: baseUrl, model: 'nomic-embed-text', apiKey: undefined, dims: 768,
      queryPrefix: '', documentPrefix: '', queryTimeoutMs: 2_000, queryCacheEntries: 10_000, retryAfterMs: 5_000,
    });
    const tuned = embedderSettings({
      EMBEDDER_URL: baseUrl, EMBEDDER_MODEL: 'e5', EMBEDDER_QUERY_PREFIX: 'query: ', EMBEDDER_DOCUMENT_PREFIX: 'passage: ',
      EMBEDDER_QUERY_TIMEOUT_MS: '500', EMBEDDER_QUERY_CACHE: '0',
    });
    expect(tuned).toMatchObject({ queryPrefix: 'query: ', documentPrefix: 'passage: ', queryTimeoutMs: 500, queryCacheEntries: 0 });
    expect(() => embedderSettings({ EMBEDDER_URL: baseUrl, EMBEDDER_MODEL: 'm', EMBEDDER_QUERY_TIMEOUT_MS: 'soon' })).toThrow(/EMBEDDER_QUERY_TIMEOUT_MS/);
    expect(configuredEmbedderName(config)).toBe('openai:nomic-embed-text');
    expect(configuredEmbedderName({ kind: 'builtin' })).toBe('builtin-lsa-v1');
    expect(() => embedderSettings({ EMBEDDER_URL: baseUrl })).toThrow(/EMBEDDER_URL and EMBEDDER_MODEL go together/);
    expect(() => embedderSettings({ EMBEDDER_URL: 'ftp://x', EMBEDDER_MODEL: 'm' })).toThrow(/EMBEDDER_URL: must be an http\(s\) URL/);
  });

  it('assertEmbedderMatches throws EmbedderMismatchError naming both embedders', () => {
    expect(() => assertEmbedderMatches({ name: 'builtin-lsa-v1', dims: 64 }, { name: 'builtin-lsa-v1', dims: 64 })).not.toThrow();
    const mismatch = () => assertEmbedderMatches({ name: 'openai:nomic-embed-text', dims: 768 }, { name: 'builtin-lsa-v1', dims: 64 });
    expect(mismatch).toThrow(EmbedderMismatchError);
    expect(mismatch).toThrow(/built with embedder "builtin-lsa-v1" \(64 dims\).*configured for "openai:nomic-embed-text" \(768 dims\)/);
    expect(() => assertEmbedderMatches({ name: 'builtin-lsa-v1', dims: 32 }, { name: 'builtin-lsa-v1', dims: 64 })).toThrow(EmbedderMismatchError);
  });

  it('openQueryEmbedder loads the snapshot model, and refuses a snapshot built by another embedder', async () => {
    const texts = ['jasa pembuatan toko online', 'aplikasi android untuk umkm', 'audit keamanan siber', 'iklan media sosial'];
    const builtin = fitBuiltinEmbedder([...texts, ...texts]);
    const file = join(mkdtempSync(join(tmpdir(), 'embedder-config-')), 'snapshot.db');
    const db = new Database(file);
    saveModel(db, builtin);
    const builtinMeta = { name: builtin.name, dims: builtin.dims };
    const loaded = await openQueryEmbedder(db, builtinMeta, { kind: 'builtin' });
    expect([...(await loaded.embedQuery('toko online'))]).toEqual([...builtin.embedQuerySync('toko online')]);

    const http = {
      kind: 'http', url: baseUrl, model: 'fake-embed', apiKey: undefined, dims: undefined,
      queryPrefix: '', documentPrefix: '', queryTimeoutMs: 2_000, queryCacheEntries: 0, retryAfterMs: 0,
    } as const;
    await expect(openQueryEmbedder(db, builtinMeta, http)).rejects.toBeInstanceOf(EmbedderMismatchError);
    const httpMeta = { name: 'openai:fake-embed', dims: FAKE_DIMS };
    await expect(openQueryEmbedder(db, httpMeta, { kind: 'builtin' })).rejects.toThrow(/built with embedder "openai:fake-embed"/);
    const remote = await openQueryEmbedder(db, httpMeta, http);
    expect(remote.dims).toBe(FAKE_DIMS);
    expect((await remote.embedQuery('toko online')).length).toBe(FAKE_DIMS);
    db.close();
  });
});
