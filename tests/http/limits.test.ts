/**
 * Abuse limits over HTTP against the real server (scripts/serve.ts) on a real
 * snapshot: an MCP batch pays one request per message and has a maximum size;
 * unkeyed requests have a per-client budget (the client taken from
 * X-Forwarded-For only as far as TRUST_PROXY says), shared by two nodes through
 * one real redis-server; unknown or reordered parameters never make a new
 * response-cache entry; transport limits answer with the error envelope.
 * Rate windows are pinned (RATE_LIMIT_CLOCK_MS) so a turning minute cannot
 * change a count.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/keys/key-store.ts';
import { buildTestSnapshot, startRedis, startServer, type Child } from '../keys/fixture.ts';

const PINNED = String(Date.UTC(2026, 0, 1, 10, 0, 5));
let dir = '';
let dbFile = '';
let keysDb = '';
let staticRoot = '';
let key = '';
const started: Child[] = [];

async function serve(env: Record<string, string>): Promise<string> {
  const server = await startServer({ DIRECTORY_DB: dbFile, KEYS_DB: keysDb, STATIC_ROOT: staticRoot, RATE_LIMIT_CLOCK_MS: PINNED, ...env });
  started.push(server);
  return server.url;
}

beforeAll(async () => {
  ({ dir, dbFile } = await buildTestSnapshot());
  keysDb = path.join(dir, 'keys.db');
  const keys = new KeyStore(keysDb);
  key = keys.create({ tier: 'regular', name: 'limits' }).key;
  keys.close();
  staticRoot = path.join(dir, 'client');
  fs.mkdirSync(staticRoot);
  fs.writeFileSync(path.join(staticRoot, 'robots.txt'), 'User-agent: *\n');
});

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const search = (id: number, q = 'website') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_providers', arguments: { q, limit: 2 } } });

async function mcp(url: string, body: unknown) {
  const r = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });
  return { status: r.status, remaining: r.headers.get('x-ratelimit-remaining'), retryAfter: r.headers.get('retry-after'), body: (await r.json()) as unknown };
}

describe('MCP batches', () => {
  it('charge one request per message, refuse more than 20 messages, and refuse a batch larger than what is left', async () => {
    const url = await serve({});
    const five = await mcp(url, [1, 2, 3, 4, 5].map((id) => search(id)));
    expect(five.status).toBe(200);
    expect((five.body as { id: number; result: { structuredContent: unknown } }[]).map((a) => a.id)).toEqual([1, 2, 3, 4, 5]);
    expect(five.remaining).toBe('25'); // 30 - 5

    const tooBig = await mcp(url, Array.from({ length: 21 }, (_, i) => search(i)));
    expect(tooBig.status).toBe(200);
    expect(tooBig.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/at most 20 messages \(this one has 21\)/) } });
    expect(tooBig.remaining).toBe('24'); // nothing ran: it counts as one request

    const twenty = await mcp(url, Array.from({ length: 20 }, (_, i) => search(i, i % 2 ? 'toko online' : 'aplikasi')));
    expect((twenty.body as unknown[]).length).toBe(20);
    expect(twenty.remaining).toBe('4');

    const over = await mcp(url, [1, 2, 3, 4, 5].map((id) => search(id)));
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/batch of 5 calls/) } });
    expect(over.retryAfter).toMatch(/^\d+$/);
    expect(over.remaining).toBe('3'); // refused, counted as one

    const fits = await mcp(url, [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
    expect(fits.status).toBe(200);
    expect(fits.remaining).toBe('0');
    expect((await mcp(url, { jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(429);
  });
});

describe('public per-client limit', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After and the keyed routes\' headers; static files, /healthz and keyed calls do not count', async () => {
    const url = await serve({ PUBLIC_RATE_LIMIT_PER_MINUTE: '4' });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await fetch(`${url}/api/v1/categories`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('4');
      expect(r.headers.get('ratelimit-policy')).toBe('"default";q=4;w=60');
      seen.push(r.headers.get('x-ratelimit-remaining')!);
      await r.arrayBuffer();
      // neither counts
      expect((await fetch(`${url}/robots.txt`)).status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    }
    expect(seen).toEqual(['3', '2', '1', '0']);
    for (const target of ['/api/v1/categories', '/api/v1/search?q=website', '/compare?a=x&b=y', '/api/ai/recommend?q=website']) {
      const r = await fetch(url + target);
      expect(r.status, target).toBe(429);
      expect(await r.json()).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/per client/) } });
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
    // A keyed call is governed by the key's budget, not the address's.
    const keyed = await fetch(`${url}/api/ai/recommend?q=website`, { headers: { 'x-api-key': key } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('reads the client from X-Forwarded-For only as many hops back as TRUST_PROXY says', async () => {
    const direct = await serve({ PUBLIC_RATE_LIMIT_PER_MINUTE: '2' });
    const behindOne = await serve({ PUBLIC_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' });
    const get = (url: string, xff: string) => fetch(`${url}/api/v1/categories`, { headers: { 'x-forwarded-for': xff } }).then((r) => r.status);
    // Without TRUST_PROXY the header is ignored: every request is the socket's address.
    expect([await get(direct, '10.0.0.1'), await get(direct, '10.0.0.2'), await get(direct, '10.0.0.3')]).toEqual([200, 200, 429]);
    // With one trusted hop, the last address is the client: two budgets; a client-written prefix is not read.
    expect([await get(behindOne, '10.0.0.1'), await get(behindOne, '10.0.0.1'), await get(behindOne, '10.0.0.1')]).toEqual([200, 200, 429]);
    expect(await get(behindOne, '10.0.0.2')).toBe(200);
    expect(await get(behindOne, '192.0.2.7, 10.0.0.1')).toBe(429);
  });

  it('is one budget per address across nodes sharing REDIS_URL', async () => {
    const redis = await startRedis();
    try {
      const env = { PUBLIC_RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: redis.url };
      const [a, b] = [await serve(env), await serve(env)];
      const statuses: number[] = [];
      for (const url of [a, b, a, b, a, b]) statuses.push((await fetch(`${url}/api/v1/categories`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await redis.stop();
    }
  });
});

describe('response cache key', () => {
  it('unknown, reordered and default-valued parameters hit the one entry of the normalized query', async () => {
    const url = await serve({});
    const counters = async () => ((await (await fetch(`${url}/healthz`)).json()) as { responseCache: { hits: number; misses: number; entries: number; bytes: number } }).responseCache;
    const first = await fetch(`${url}/api/v1/search?q=website&city=Jakarta%20Selatan`);
    const body = await first.text();
    const before = await counters();
    expect(before).toEqual({ hits: expect.any(Number), misses: expect.any(Number), entries: expect.any(Number), bytes: expect.any(Number) });
    expect(before.entries).toBeGreaterThan(0);
    const variants = [
      '/api/v1/search?city=Jakarta%20Selatan&q=website',
      '/api/v1/search?q=website&city=Jakarta%20Selatan&x=1',
      '/api/v1/search?q=website&city=Jakarta%20Selatan&utm_source=abc&x=2',
      '/api/v1/search?q=%20website%20&city=Jakarta%20Selatan&page=1&limit=20&sort=relevance',
      '/api/v1/search?q=website&q=other&city=Jakarta%20Selatan&limit=abc',
    ];
    for (const target of variants) {
      const r = await fetch(url + target);
      expect(r.headers.get('etag'), target).toBe(first.headers.get('etag'));
      expect(await r.text(), target).toBe(body);
    }
    const after = await counters();
    expect(after.entries).toBe(before.entries);
    expect(after.hits).toBe(before.hits + variants.length);
    expect(after.misses).toBe(before.misses);
    // A parameter that changes the answer is a new entry.
    await (await fetch(`${url}/api/v1/search?q=website&city=Jakarta%20Selatan&page=2`)).arrayBuffer();
    expect((await counters()).entries).toBe(before.entries + 1);
  });
});

describe('transport limits', () => {
  /** One raw request: the status and body as received (never a reset). */
  function raw(url: string, target: string, init: { method?: string; body?: Buffer; headers?: Record<string, string> } = {}) {
    const { hostname, port } = new URL(url);
    return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request({ hostname, port, path: target, method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }

  it('answers a 100,000-character URL, a 2 MB body and a POST to a page with the envelope', async () => {
    const url = await serve({});
    const long = await raw(url, `/api/v1/search?q=${'a'.repeat(100_000)}`);
    expect(long.status).toBe(431);
    expect(JSON.parse(long.body)).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String), details: null } });

    const big = await raw(url, '/mcp', { method: 'POST', body: Buffer.alloc(2_000_000, 0x20), headers: { 'x-api-key': key, 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });

    const post = await raw(url, '/search?q=x', { method: 'POST', body: Buffer.from('q=x') });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(post.body)).toMatchObject({ error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('answers a refused request that follows another on a keep-alive connection after that one\'s answer', async () => {
    const { hostname, port } = new URL(await serve({}));
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        // Pipelined: the second request's header overflow is found while the first is still being answered.
        socket.write(`GET /api/v1/search?q=website HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 431]);
    expect(received).toContain('"code":"HEADERS_TOO_LARGE"');
  });

  it('reads and drops the rest of a 300 KB URL and what follows it, so the client finishes sending and receives the answer', async () => {
    const { hostname, port } = new URL(await serve({}));
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, async () => {
        // The server reads this in several pieces and its parser reports the overflow again for each: none may reset the connection.
        socket.write(`GET /api/v1/search?q=${'a'.repeat(300_000)}`);
        for (let piece = 0; piece < 5; piece++) {
          await new Promise((r) => setTimeout(r, 40));
          socket.write('b'.repeat(20_000));
        }
        socket.end(' HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(received).toContain('"code":"HEADERS_TOO_LARGE"');
  });
});
