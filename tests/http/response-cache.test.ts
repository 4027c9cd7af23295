/**
 * The response cache of the public API (src/server/response-cache.ts) over HTTP:
 * two real node servers (createNodeServer, the server scripts/serve.ts runs) over
 * one fixture snapshot built by the real builder, one with the cache and one with
 * it off. Cached answers (served from the cache, counted as hits) are
 * byte-identical to computed ones, body and headers, plain and compressed, 200,
 * 304 and HEAD; errors, no-store routes and keyed routes are never stored; a hot
 * swap serves the new snapshot's data, never a body cached from the old one.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { SnapshotHolder } from '../../src/server/snapshot-holder.ts';
import { testAppContext } from '../support/app-context.ts';
import { closeGracefully, createNodeServer } from '../../src/server/node-server.ts';
import { ResponseCache, responseCacheFor } from '../../src/server/response-cache.ts';
import { staticHeaders } from '../../src/site/static-headers.ts';
import { buildFixture, type Fixture } from './fixture.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a fresh connection, the target sent as written; the body exactly as sent (no decoding). */
function raw(base: string, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: target, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ by request or by time, never by answer. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'connection', 'keep-alive']);
const answerHeaders = (r: Raw) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => !PER_REQUEST.has(k)));

let fixture: Fixture;
let live = '';
let nextFile = '';
let keysDb = '';
let snapshots: SnapshotHolder;
const cache = new ResponseCache(64 * 1024 * 1024);
const servers: http.Server[] = [];
let cached = '';
let uncached = '';

async function listen(responseCache: ResponseCache | undefined): Promise<string> {
  const context = testAppContext(
    { DIRECTORY_DB: live, KEYS_DB: keysDb, PORT: '0', API_RESPONSE_CACHE_MB: '0', PUBLIC_RATE_LIMIT_PER_MINUTE: '0' },
    { snapshots },
  );
  const server = await createNodeServer({ context, headersFor: staticHeaders(context.env.securityHeaders).forPath, responseCache });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The fixture's dollar studio with another tagline: the data the swap must show. */
const NEW_TAGLINE = 'Website WordPress setelah rebuild';

beforeAll(async () => {
  fixture = await buildFixture();
  live = path.join(fixture.dir, 'live.db');
  fs.copyFileSync(fixture.dbFile, live);
  const editedDir = path.join(fixture.dir, 'edited');
  fs.cpSync(fixture.dataDir, editedDir, { recursive: true });
  const providersFile = path.join(editedDir, 'providers.ndjson');
  const edited = fs
    .readFileSync(providersFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const record = JSON.parse(line);
      return JSON.stringify(record.slug === 'dollar-rate-studio' ? { ...record, tagline: NEW_TAGLINE } : record);
    });
  fs.writeFileSync(providersFile, edited.join('\n') + '\n');
  nextFile = path.join(fixture.dir, 'next.db');
  await buildSnapshot({ inputDir: editedDir, outFile: nextFile });
  keysDb = path.join(fixture.dir, 'keys.db');
  // One holder for both servers, as one process has (the swap test replaces its file).
  snapshots = new SnapshotHolder(live, { log: () => {} });
  cached = await listen(cache);
  uncached = await listen(undefined);
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => closeGracefully(s, 1000)));
  snapshots?.close();
  if (fixture) fs.rmSync(fixture.dir, { recursive: true, force: true });
});

/** Every public GET route with a 200 answer, paginated ones with a Link. */
const CACHEABLE = [
  '/api/v1/categories',
  '/api/v1/providers',
  '/api/v1/providers?page=2&limit=5',
  '/api/v1/providers?q=toko%20online&city=Jakarta%20Selatan',
  '/api/v1/providers/dollar-rate-studio',
  '/api/v1/providers/hostile-name-co',
  '/api/v1/search?q=website',
  '/api/v1/search?q=jasa%20SEO&page=2&limit=3',
  '/api/v1/discovery/programmatic-params?limit=5',
  '/api/v1/reports/web-development-indonesia-2026',
  '/api/v1/openapi.json',
  // dot segments: routed and keyed by the URL as parsed, like the web path
  '/api/v1/providers/./dollar-rate-studio',
  '/api/v1/providers/%2e%2e/categories',
];

describe('response cache over HTTP', () => {
  it('serves cached answers byte-identical to computed ones: body and headers, plain, br and gzip', async () => {
    const compressed = new Set<string>();
    for (const target of CACHEABLE) {
      for (const encoding of [undefined, 'br', 'gzip']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
        await raw(cached, target, headers); // fills the cache (or hits it, when an earlier request did)
        const before = cache.stats().hits;
        const hit = await raw(cached, target, headers);
        expect(cache.stats().hits, `${target} ${encoding} is served from the cache`).toBe(before + 1);
        const computed = await raw(uncached, target, headers);
        expect(hit.status, target).toBe(200);
        expect(computed.status, target).toBe(200);
        expect(answerHeaders(hit), `${target} ${encoding}`).toEqual(answerHeaders(computed));
        expect(hit.body.equals(computed.body), `${target} ${encoding} body`).toBe(true);
        expect(hit.headers['x-request-id']).not.toBe(computed.headers['x-request-id']);
        if (encoding && hit.headers['content-encoding'] === encoding) compressed.add(encoding);
      }
    }
    expect([...compressed].sort()).toEqual(['br', 'gzip']);
  });

  it('answers If-None-Match from the cache with the same 304, and HEAD with the headers of the computed HEAD', async () => {
    const target = '/api/v1/providers/dollar-rate-studio';
    const first = await raw(cached, target);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    const hits = cache.stats().hits;
    const fromCache = await raw(cached, target, { 'if-none-match': etag });
    expect(cache.stats().hits).toBe(hits + 1);
    const computed = await raw(uncached, target, { 'if-none-match': etag });
    expect(fromCache.status).toBe(304);
    expect(computed.status).toBe(304);
    expect(fromCache.body.length).toBe(0);
    expect(answerHeaders(fromCache)).toEqual(answerHeaders(computed));
    // Another ETag is not a match: the full answer.
    expect((await raw(cached, target, { 'if-none-match': 'W/"other"' })).status).toBe(200);

    const head = await raw(cached, target, {}, 'HEAD');
    const headComputed = await raw(uncached, target, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(answerHeaders(head)).toEqual(answerHeaders(headComputed));
    expect(head.headers.etag).toBe(etag);
  });

  it('never stores errors, no-store answers or key-protected routes', async () => {
    const stored = cache.stats().entries;
    const notStored = [
      '/api/v1/providers/no-such-provider',
      '/api/v1/providers/approved-not-published',
      '/api/v1/search?q=a',
      '/api/v1/search',
      '/api/v1/discovery/programmatic?categorySlug=nope&citySlug=bandung',
      '/api/v1/discovery/compare?slugs=dollar-rate-studio,hostile-name-co',
      '/api/ai/recommend?q=toko%20online',
      '/api/v1/nope',
    ];
    for (const target of notStored) {
      const a = await raw(cached, target);
      const b = await raw(cached, target);
      const computed = await raw(uncached, target);
      expect(a.status, target).toBe(computed.status);
      expect(b.body.equals(computed.body), target).toBe(true);
    }
    const compare = await raw(cached, '/api/v1/discovery/compare?slugs=dollar-rate-studio,hostile-name-co');
    expect(compare.headers['cache-control']).toBe('no-store');
    expect(cache.stats().entries).toBe(stored);
  });

  it('after a hot swap serves the new snapshot, not a body cached from the old one', async () => {
    const target = '/api/v1/providers/dollar-rate-studio';
    const old = await raw(cached, target);
    const oldAgain = await raw(cached, target);
    expect(oldAgain.body.equals(old.body)).toBe(true);
    expect(JSON.parse(old.body.toString()).data.tagline).toBe('Website WordPress');
    const oldId = old.headers['x-snapshot-id'];

    const tmp = `${live}.incoming`;
    fs.copyFileSync(nextFile, tmp);
    fs.renameSync(tmp, live);
    // The holder looks for a replaced file at most every 250 ms; wait until it swapped.
    let swapped = old;
    for (let i = 0; i < 200 && swapped.headers['x-snapshot-id'] === oldId; i++) {
      await new Promise((r) => setTimeout(r, 50));
      swapped = await raw(cached, target);
    }
    expect(swapped.headers['x-snapshot-id']).not.toBe(oldId);
    expect(JSON.parse(swapped.body.toString()).data.tagline).toBe(NEW_TAGLINE);
    expect(swapped.headers.etag).not.toBe(old.headers.etag);
    // The old ETag no longer validates, and the cached server agrees with the uncached one.
    expect((await raw(cached, target, { 'if-none-match': old.headers.etag! })).status).toBe(200);
    const computed = await raw(uncached, target);
    const again = await raw(cached, target);
    expect(again.body.equals(computed.body)).toBe(true);
    expect(answerHeaders(again)).toEqual(answerHeaders(computed));
    const search = JSON.parse((await raw(cached, '/api/v1/search?q=website')).body.toString());
    const searchComputed = JSON.parse((await raw(uncached, '/api/v1/search?q=website')).body.toString());
    expect(search).toEqual(searchComputed);
  });
});

describe('ResponseCache', () => {
  it('is bounded by bytes, least recently used out first, and drops a generation when the snapshot changes', () => {
    const a = new Snapshot(fixture.dbFile);
    const b = new Snapshot(nextFile);
    try {
      const small = new ResponseCache(40_000);
      const reply = (n: number) => ({ status: 200, headers: {}, body: Buffer.alloc(n, 'x') });
      expect(small.get(a, '/k0')).toBeUndefined();
      for (let i = 0; i < 20; i++) small.set(a, `/k${i}`, reply(2000), `e${i}`);
      expect(small.stats().bytes).toBeLessThanOrEqual(40_000);
      expect(small.stats().entries).toBeGreaterThan(5);
      expect(small.stats().entries).toBeLessThan(20);
      expect(small.get(a, '/k19')?.etag).toBe('e19');
      expect(small.get(a, '/k0')).toBeUndefined(); // the oldest went first

      // A recently read entry survives the next insertion; an unread one of the same age does not.
      const survivor = `/k${20 - small.stats().entries}`;
      const victim = `/k${21 - small.stats().entries}`;
      expect(small.get(a, survivor)).toBeDefined();
      small.set(a, '/k20', reply(2000), 'e20');
      expect(small.get(a, survivor)).toBeDefined();
      expect(small.get(a, victim)).toBeUndefined();

      expect(small.set(a, '/huge', reply(6000), 'h')).toBeUndefined(); // over an eighth of the budget
      expect(small.set(b, '/k1', reply(10), 'x')).toBeUndefined(); // not the current generation
      expect(small.get(b, '/k20')).toBeUndefined(); // the snapshot changed: everything dropped
      expect(small.stats().entries).toBe(0);
      expect(small.set(a, '/k1', reply(10), 'x')).toBeUndefined(); // a late store from the old snapshot
      expect(small.set(b, '/k1', reply(10), 'x')?.etag).toBe('x');
    } finally {
      a.close();
      b.close();
    }
  });

  it('holds 5,000 distinct 15 KB answers in 64 MB: old entries keep only gzip, and serve every encoding byte-exact', () => {
    const a = new Snapshot(fixture.dbFile);
    try {
      const big = new ResponseCache(64 * 1024 * 1024);
      big.get(a, '/warm'); // starts the generation
      const answers = 5000;
      const bodyOf = (i: number) => Buffer.from(JSON.stringify({ data: searchLikeItems(i), meta: { q: `query ${i}`, page: 1, limit: 20 } }));
      expect(bodyOf(0).length).toBeGreaterThan(14_000);
      for (let i = 0; i < answers; i++) big.set(a, `/api/v1/search?q=query+${i}`, { status: 200, headers: {}, body: bodyOf(i) }, `e${i}`, true);
      const stats = big.stats();
      expect(stats.entries).toBe(answers); // nothing evicted
      expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
      expect(stats.compact).toBeGreaterThan(1000); // the oldest keep only their gzip body

      // A compact entry: gzip as kept, plain and brotli rebuilt, then full again (recently used).
      const old = big.get(a, '/api/v1/search?q=query+0')!;
      expect(old.plain).toBeNull();
      expect(zlib.gunzipSync(big.body(old, 'gzip')).equals(bodyOf(0))).toBe(true);
      expect(big.body(old, null).equals(bodyOf(0))).toBe(true);
      expect(zlib.brotliDecompressSync(big.body(old, 'br')).equals(bodyOf(0))).toBe(true);
      expect(old.plain).not.toBeNull();
      expect(big.stats().bytes).toBeLessThanOrEqual(stats.maxBytes);
      const young = big.get(a, `/api/v1/search?q=query+${answers - 1}`)!;
      expect(young.plain?.equals(bodyOf(answers - 1))).toBe(true);
      expect(big.counters()).toEqual({ hits: 2, misses: 1, entries: answers, bytes: big.stats().bytes });

      // Every body kept in memory of its own, exactly its length: a slice of a shared block
      // (Node cuts small Buffers out of 64 KB ones) would keep the whole block alive.
      const ownMemory = (b: Buffer | null) => b === null || (b.byteOffset === 0 && b.buffer.byteLength === b.length);
      for (const entry of [old, young]) for (const b of [entry.plain, entry.gzip, entry.br]) expect(ownMemory(b)).toBe(true);
      const slice = Buffer.concat([Buffer.alloc(64), bodyOf(answers)]).subarray(64);
      const stored = big.set(a, '/api/v1/search?q=a+slice', { status: 200, headers: {}, body: slice }, 'slice', true)!;
      expect(stored.plain?.equals(bodyOf(answers))).toBe(true);
      expect([stored.plain, stored.gzip].every(ownMemory)).toBe(true);
    } finally {
      a.close();
    }
  }, 60_000);

  it('API_RESPONSE_CACHE_MB: 64 MB by default, 0 disables, bad values refused', () => {
    expect(loadEnv({}).apiResponseCacheMb).toBe(64);
    expect(responseCacheFor(loadEnv({}).apiResponseCacheMb)?.maxBytes).toBe(64 * 1024 * 1024);
    expect(responseCacheFor(loadEnv({ API_RESPONSE_CACHE_MB: '0' }).apiResponseCacheMb)).toBeUndefined();
    expect(() => loadEnv({ API_RESPONSE_CACHE_MB: '-1' })).toThrow(/API_RESPONSE_CACHE_MB/);
    expect(() => loadEnv({ API_RESPONSE_CACHE_MB: 'lots' })).toThrow(/API_RESPONSE_CACHE_MB/);
  });
});

/** Twenty provider summaries shaped like a search answer's, with text that differs per answer (JSON compresses about 4-6x). */
function searchLikeItems(seed: number) {
  const words = ['jasa', 'website', 'toko', 'online', 'aplikasi', 'mobile', 'desain', 'branding', 'seo', 'digital', 'studio', 'kreatif', 'solusi', 'teknologi', 'cloud', 'data'];
  let x = seed * 2654435761 + 1;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296);
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  return Array.from({ length: 20 }, (_, i) => ({
    slug: `${text(2).replace(/ /g, '-')}-${seed}-${i}`,
    companyName: text(3),
    tagline: text(8),
    description: text(60),
    city: 'Jakarta Selatan',
    province: 'DKI Jakarta',
    trustLevel: Math.floor(rnd() * 5),
    overallRating: Math.round(rnd() * 50) / 10,
    totalReviews: Math.floor(rnd() * 300),
    categories: [{ slug: 'web-development', name: 'Web Development' }],
    search: { rrfScore: rnd(), keywordRank: i + 1, vectorRank: Math.floor(rnd() * 150) + 1 },
  }));
}
