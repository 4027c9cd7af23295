/**
 * The bridge between node:http and web-standard handlers on the lean path:
 * IncomingMessage -> Request, Response -> ServerResponse, with compression.
 * Kept minimal on purpose: this path is what the HTTP benchmark measures.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';

const MAX_BODY_BYTES = 1_000_000;

export async function toWebRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') init.body = new Uint8Array(await readBody(req));
  return new Request(origin + (req.url ?? '/'), init);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export class BodyTooLargeError extends Error {}

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|ld\+json|xml|javascript|problem\+json))/;
const MIN_COMPRESS_BYTES = 1024;

/** Picks br or gzip from Accept-Encoding (br preferred), or null. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const ae = acceptEncoding.toLowerCase();
  if (/\bbr\b(?!;q=0(?:\.0*)?\b)/.test(ae)) return 'br';
  if (/\bgzip\b(?!;q=0(?:\.0*)?\b)/.test(ae)) return 'gzip';
  return null;
}

export function compress(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.gzipSync(body, { level: 6 });
}

/** Writes a (buffered) web Response to node, compressing when worth it. */
export async function sendWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'set-cookie') return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  let body: Buffer | null = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  const type = response.headers.get('content-type') ?? '';
  if (body && body.length >= MIN_COMPRESS_BYTES && COMPRESSIBLE.test(type) && !response.headers.has('content-encoding')) {
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (encoding) {
      body = compress(body, encoding);
      headers['content-encoding'] = encoding;
    }
    headers['vary'] = appendVary(response.headers.get('vary'), 'Accept-Encoding');
  }
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body ?? undefined);
}

export function appendVary(existing: string | null, value: string): string {
  if (!existing) return value;
  return existing.toLowerCase().split(/\s*,\s*/).includes(value.toLowerCase()) ? existing : `${existing}, ${value}`;
}
