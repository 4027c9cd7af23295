/**
 * The one response layer: the spec's envelope for every error, and the headers of
 * every public answer (CORS, X-Snapshot-Id, ETag with If-None-Match -> 304,
 * Cache-Control, Link). Handlers return data or throw an ApiError; only this file
 * builds answers from them (STYLE.md habit 1).
 *
 * Answers are built as plain Replies (status, lowercase headers, a body buffer):
 * the node server writes them without web Request/Response objects (the HTTP
 * benchmark's hot path, issue 7) and the response cache keeps them; `toResponse`
 * wraps one as a web Response for `astro dev` and the in-process tests.
 */
import type { Logger } from 'pino';
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from './errors.ts';
import { corsHeaders, etagMatches, NO_STORE, paginationLink, SNAPSHOT_CACHE_CONTROL, weakEtag } from './http.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A buffered answer as data. Header names are lowercase. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

const lowerKeys = (headers: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const key in headers) out[key.toLowerCase()] = headers[key]!;
  return out;
};

const CORS = lowerKeys(corsHeaders());

export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': JSON_TYPE, ...CORS, ...lowerKeys(headers) },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** An ApiError as the spec's envelope; anything else is logged and answered as a bare 500. */
export function errorReply(err: unknown, logger: Logger): Reply {
  if (err instanceof ApiError) {
    return jsonReply(err.toBody(), err.status, { 'Cache-Control': NO_STORE, ...err.headers });
  }
  logger.error({ err }, 'internal error');
  const internal = new ApiError('INTERNAL_ERROR', 'An internal error occurred.');
  return jsonReply(internal.toBody(), internal.status, { 'Cache-Control': NO_STORE });
}

export function toResponse(reply: Reply): Response {
  return new Response(reply.body === null ? null : new Uint8Array(reply.body), { status: reply.status, headers: reply.headers });
}

export const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  toResponse(jsonReply(body, status, headers));

export const errorResponse = (err: unknown, logger: Logger): Response => toResponse(errorReply(err, logger));

/** What a public GET handler returns; the response layer adds the headers. */
export interface RestResult {
  body: unknown;
  /** set on paginated lists: gives the Link header */
  page?: { page: number; totalPages: number };
  /** a degraded answer (the vector side was unavailable): never cached, here or downstream */
  noStore?: boolean;
}

export type CachePolicy = 'snapshot' | 'no-store';

/** The 304 of a snapshot-cached answer: its validators and caching headers, no body. */
export function notModifiedReply(snapshotId: string, etag: string): Reply {
  return {
    status: 304,
    headers: { ...CORS, 'x-snapshot-id': snapshotId, etag, 'cache-control': SNAPSHOT_CACHE_CONTROL },
    body: null,
  };
}

/**
 * Runs a public GET handler against one snapshot. With the snapshot policy the
 * ETag depends only on the snapshot and the URL (path and query as parsed), so a
 * matching If-None-Match is answered 304 before any query runs.
 */
export async function snapshotReply(
  ifNoneMatch: string | null | undefined,
  url: URL,
  snapshot: Snapshot,
  cache: CachePolicy,
  run: () => RestResult | Promise<RestResult>,
): Promise<Reply> {
  const headers: Record<string, string> = { 'x-snapshot-id': snapshot.id };
  if (cache === 'snapshot') {
    const etag = weakEtag(snapshot.id, url);
    if (etagMatches(ifNoneMatch ?? null, etag)) return notModifiedReply(snapshot.id, etag);
    headers.etag = etag;
    headers['cache-control'] = SNAPSHOT_CACHE_CONTROL;
  } else {
    headers['cache-control'] = NO_STORE;
  }
  const result = await run();
  if (result.noStore) {
    delete headers.etag;
    headers['cache-control'] = NO_STORE;
  }
  if (result.page) {
    const link = paginationLink(url, result.page.page, result.page.totalPages);
    if (link) headers.link = link;
  }
  return jsonReply(result.body, 200, headers);
}

/** HEAD is GET without a body, with the same headers. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
