/**
 * A plain static file server over a folder (node:http), with what a node needs of
 * one (ETag / If-None-Match, Range), for the origin tests that must cut a
 * connection midway at a chosen byte, which nginx does not do on request. The
 * fault suite's origin is a real nginx (tests/faults/many-nodes.test.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export interface StaticOrigin {
  url: string;
  /** every request seen: path and Range header */
  requests: { path: string; range: string | undefined }[];
  /** the next response for `urlPath` sends `bytes` bytes of its body and then cuts the connection */
  cutNext(urlPath: string, bytes: number): void;
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<StaticOrigin> {
  const requests: StaticOrigin['requests'] = [];
  const cuts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push({ path: urlPath, range: req.headers.range });
    const file = path.join(root, urlPath);
    let body: Buffer;
    try {
      body = fs.readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    const etag = `"${crypto.createHash('sha1').update(body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    let status = 200;
    const headers: Record<string, string> = { etag, 'accept-ranges': 'bytes' };
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
      body = body.subarray(start);
      status = 206;
    }
    headers['content-length'] = String(body.length);
    res.writeHead(status, headers);
    const cut = cuts.get(urlPath);
    if (cut === undefined) return void res.end(body);
    cuts.delete(urlPath);
    res.write(body.subarray(0, cut), () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    cutNext: (urlPath, bytes) => void cuts.set(urlPath, bytes),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
