/**
 * /mcp over HTTP against the real server (scripts/serve.ts) on a real snapshot:
 * the official MCP SDK client, and plain JSON-RPC clients.
 */
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/keys/key-store.ts';
import { buildTestSnapshot, startServer, type Child } from '../keys/fixture.ts';

let server: Child;
let key: string;
let slugs: string[];
let keys: KeyStore;

beforeAll(async () => {
  const { dir, dbFile } = await buildTestSnapshot();
  const keysDb = path.join(dir, 'keys.db');
  keys = new KeyStore(keysDb);
  key = keys.create({ tier: 'enterprise', name: 'mcp tests' }).key;
  const db = new Database(dbFile, { readonly: true });
  slugs = (db.prepare('SELECT slug FROM published_providers ORDER BY slug LIMIT 2').all() as { slug: string }[]).map((r) => r.slug);
  db.close();
  server = await startServer({ DIRECTORY_DB: dbFile, KEYS_DB: keysDb, MCP_ALLOWED_ORIGINS: 'https://allowed.example' });
});

afterAll(async () => {
  keys?.close();
  await server?.stop();
});

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': key, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('official MCP SDK client', () => {
  it('connects with X-API-Key, lists the three tools with schemas, calls each and gets structuredContent', async () => {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { 'X-API-Key': key } },
    });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'provider-directory' });
    expect(await client.ping()).toEqual({});

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_providers', 'get_provider_card', 'compare_providers']);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
      for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((prop as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
      }
    }

    const search = await client.callTool({ name: 'search_providers', arguments: { q: 'toko online', limit: 3 } });
    expect(search.isError).toBeFalsy();
    const found = search.structuredContent as { data: { slug: string; search: { source: string } }[]; meta: { q: string } };
    expect(found.meta.q).toBe('toko online');
    expect(found.data.length).toBeGreaterThan(0);
    expect(found.data.length).toBeLessThanOrEqual(3);
    expect(JSON.parse((search.content as { text: string }[])[0]!.text)).toEqual(found);

    // Same data as the REST search.
    const rest = await (await fetch(`${server.url}/api/v1/search?q=toko%20online&limit=3`)).json();
    expect(found.data).toEqual(rest.data);

    const card = await client.callTool({ name: 'get_provider_card', arguments: { slug: found.data[0]!.slug } });
    expect(card.structuredContent).toMatchObject({ '@type': 'ProfessionalService', entity: { slug: found.data[0]!.slug } });

    const compare = await client.callTool({ name: 'compare_providers', arguments: { slugA: slugs[0], slugB: slugs[1] } });
    const compared = compare.structuredContent as { data: { slug: string }[]; meta: { comparisonContext: { rule: string } } };
    expect(compared.data.map((d) => d.slug)).toEqual(slugs);
    expect(compared.meta.comparisonContext.rule).toBe('same_service_industry');

    const miss = await client.callTool({ name: 'get_provider_card', arguments: { slug: 'no-such-provider' } });
    expect(miss.isError).toBe(true);
    expect((miss.content as { text: string }[])[0]!.text).toContain('BUSINESS_NOT_FOUND');
    const short = await client.callTool({ name: 'search_providers', arguments: { q: 'x' } });
    expect(short.isError).toBe(true);
    expect((short.content as { text: string }[])[0]!.text).toContain('QUERY_TOO_SHORT');
    await client.close();
  });

  it('accepts Authorization: Bearer from an SDK client', async () => {
    const client = new Client({ name: 'mcp-bearer', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();
  });
});

describe('plain JSON-RPC', () => {
  const NAMES = { tools: ['search_providers', 'get_provider_card', 'compare_providers'] };

  it('tools/list returns the three names as strings with Accept: application/json', async () => {
    const r = await post({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' }, { Accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.headers.get('x-ratelimit-limit')).toBe('120');
    expect(await r.json()).toEqual({ jsonrpc: '2.0', id: 'list-1', result: NAMES });
  });

  it('tools/list works with no Accept header at all (node:http, since fetch always adds one)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'list-2', method: 'tools/list' });
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': key } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'list-2', result: NAMES });
  });

  it('echoes numeric ids and answers tools/call', async () => {
    const r = await post({ jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'compare_providers', arguments: { slugA: slugs[0], slugB: slugs[0] } } });
    const body = await r.json();
    expect(body.id).toBe(42);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toContain('SLUG_DUPLICATE');
  });

  it('malformed JSON -> -32700; invalid request -> -32600; unknown method -> -32601; bad params -> -32602; all HTTP 200', async () => {
    const cases: [unknown, number, string | number | null][] = [
      ['{"jsonrpc": "2.0", "id": 1, "method": ', -32700, null],
      [{ jsonrpc: '1.0', id: 2, method: 'tools/list' }, -32600, 2],
      [{ jsonrpc: '2.0', id: 3 }, -32600, 3],
      [{ jsonrpc: '2.0', id: 4, method: 'resources/list' }, -32601, 4],
      [{ jsonrpc: '2.0', id: 'five', method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }, -32602, 'five'],
      [{ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'search_providers', arguments: { q: 5 } } }, -32602, 6],
      [{ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_provider_card' , arguments: {} } }, -32602, 7],
    ];
    for (const [body, code, id] of cases) {
      const r = await post(body);
      expect(r.status).toBe(200);
      const json = await r.json();
      expect(json, JSON.stringify(body)).toMatchObject({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
    }
  });

  it('a notification gets 202 with no body', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(r.status).toBe(202);
    expect(await r.text()).toBe('');
  });

  it('initialize negotiates the protocol version and names the server', async () => {
    const ask = async (protocolVersion: string) =>
      (await (await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } } })).json()).result;
    expect(await ask('2025-06-18')).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'provider-directory' }, capabilities: { tools: {} } });
    expect((await ask('1999-01-01')).protocolVersion).toBe('2025-11-25');
  });
});

describe('key, origin and GET', () => {
  it('401 without a key, in the REST envelope', async () => {
    const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: { code: 'API_KEY_REQUIRED', message: expect.any(String) } });
  });

  it('403 for an Origin outside MCP_ALLOWED_ORIGINS; an allowed Origin passes', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(body, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(body, { Origin: 'https://allowed.example' })).status).toBe(200);
  });

  it('GET /mcp: small JSON document; with Accept: text/event-stream 405 Allow: GET, POST', async () => {
    const info = await fetch(`${server.url}/mcp`);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      name: 'provider-directory',
      version: expect.any(String),
      jsonrpc: '2.0',
      tools: ['search_providers', 'get_provider_card', 'compare_providers'],
      status: 'ok',
    });
    const stream = await fetch(`${server.url}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('GET, POST');
  });

  it('answers with the security headers of shared data: CORS open, CORP cross-origin, nosniff, a CSP that allows nothing', async () => {
    const answers = [await post({ jsonrpc: '2.0', id: 1, method: 'ping' }), await fetch(`${server.url}/mcp`), await post({ jsonrpc: '2.0', method: 'notifications/initialized' })];
    for (const res of answers) {
      expect([res.status, res.headers.get('access-control-allow-origin')]).toEqual([res.status, '*']);
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200, 202]);
  });
});
