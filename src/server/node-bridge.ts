/**
 * The bridge between node:http and web-standard handlers on the lean path:
 * IncomingMessage -> Request, Response -> ServerResponse, with compression.
 * Kept minimal on purpose: this path is what the HTTP benchmark measures.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseEncoding, compress } from './compression.ts';
import type { Reply } from './respond.ts';
import type { CachedReply, ResponseCache } from './response-cache.ts';

/** The largest request body read (POST /mcp; any other body is refused unread or ignored). */
export const MAX_BODY_BYTES = 1_000_000;

export async function toWebRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') init.body = new Uint8Array(await readBody(req));
  return new Request(origin + (req.url ?? '/'), init);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new BodyTooLargeError();
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

/** A web Response as a Reply (lowercase headers, the body read into a buffer). */
export async function replyOf(response: Response): Promise<Reply & { cookies: string[] }> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  return { status: response.status, headers, body, cookies: response.headers.getSetCookie() };
}

/** Writes a (buffered) web Response to node, compressing when worth it. */
export async function sendWebResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const { cookies, ...reply } = await replyOf(response);
  writeReply(req, res, reply, cookies.length ? { 'set-cookie': cookies } : undefined);
}

/** True when a Reply's body is sent compressed to clients that accept it. */
export function isCompressible(reply: Reply): boolean {
  const body = reply.body;
  return body !== null && body.length >= MIN_COMPRESS_BYTES && COMPRESSIBLE.test(reply.headers['content-type'] ?? '') && !reply.headers['content-encoding'];
}

/**
 * Writes a Reply: the body compressed (br or gzip, as accepted) when it is
 * compressible and worth it, Content-Length, then the body unless HEAD.
 * `encode` is where compressed bodies come from (the response cache keeps them);
 * `extra` are per-request headers that are not part of the Reply.
 */
export function writeReply(
  req: IncomingMessage,
  res: ServerResponse,
  reply: Reply,
  extra?: Record<string, string | string[]>,
  encode: (body: Buffer, encoding: 'br' | 'gzip') => Buffer = compress,
): void {
  const headers: Record<string, string | string[]> = { ...reply.headers, ...extra };
  let body = reply.body;
  if (body && isCompressible(reply)) {
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (encoding) {
      body = encode(body, encoding);
      headers['content-encoding'] = encoding;
    }
    headers['vary'] = appendVary(reply.headers['vary'] ?? null, 'Accept-Encoding');
  }
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body ?? undefined);
}

/** Writes a cached answer as writeReply writes the Reply it was made from (same headers, same bytes). */
export function writeCached(req: IncomingMessage, res: ServerResponse, entry: CachedReply, cache: ResponseCache, extra: Record<string, string>): void {
  const headers: Record<string, string> = { ...entry.headers, ...extra };
  // HEAD: the headers of GET without the body, its length or its encoding, as writeReply writes a bodiless Reply.
  if (req.method === 'HEAD') return void res.writeHead(entry.status, headers).end();
  const encoding = entry.compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
  if (entry.compressible) headers['vary'] = appendVary(entry.headers['vary'] ?? null, 'Accept-Encoding');
  if (encoding) headers['content-encoding'] = encoding;
  const body = cache.body(entry, encoding);
  headers['content-length'] = String(body.length);
  res.writeHead(entry.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function appendVary(existing: string | null, value: string): string {
  if (!existing) return value;
  return existing.toLowerCase().split(/\s*,\s*/).includes(value.toLowerCase()) ? existing : `${existing}, ${value}`;
}
