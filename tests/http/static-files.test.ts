/**
 * src/server/static-files.ts over a real node:http server: a page asked for with gzip
 * or brotli is compressed once and kept, and the kept body decodes to the file, on the
 * first request and the next; without Accept-Encoding the file goes as it is.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StaticFiles } from '../../src/server/static-files.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-static-'));
const page = `<!doctype html><title>p</title>${'<p>jasa pembuatan website di jakarta</p>'.repeat(200)}`;
let server: http.Server;
let base = '';

beforeAll(async () => {
  fs.writeFileSync(path.join(root, 'page.html'), page);
  const files = new StaticFiles(() => root, () => ({ 'cache-control': 'public, max-age=60' }));
  server = http.createServer((req, res) => {
    if (!files.serve(req, res, new URL(req.url ?? '/', 'http://x').pathname, {})) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

function get(target: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${target}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('static files', () => {
  it('compresses a page once per encoding and serves the kept body, decoding to the file', async () => {
    for (const [encoding, decode] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const first = await get('/page', { 'accept-encoding': encoding });
      const again = await get('/page', { 'accept-encoding': encoding });
      for (const r of [first, again]) {
        expect(r.status).toBe(200);
        expect(r.headers['content-encoding']).toBe(encoding);
        expect(r.headers.vary).toBe('Accept-Encoding');
        expect(Number(r.headers['content-length'])).toBe(r.body.length);
        expect(decode(r.body).toString()).toBe(page);
      }
      expect(again.body.equals(first.body)).toBe(true);
      expect(first.body.length).toBeLessThan(page.length / 4);
    }
    const plain = await get('/page', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });
});
