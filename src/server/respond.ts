/**
 * The one response layer: the spec's envelope for every error, and the headers of
 * every public answer (CORS, X-Snapshot-Id, ETag with If-None-Match -> 304,
 * Cache-Control, Link). Handlers return data or throw an ApiError; only this file
 * builds Responses from them (STYLE.md habit 1).
 */
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from './errors.ts';
import { corsHeaders, etagMatches, NO_STORE, paginationLink, SNAPSHOT_CACHE_CONTROL, weakEtag } from './http.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': JSON_TYPE, ...corsHeaders(), ...headers },
  });
}

/** An ApiError as the spec's envelope; anything else is logged and answered as a bare 500. */
export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) {
    return jsonResponse(err.toBody(), err.status, { 'Cache-Control': NO_STORE, ...err.headers });
  }
  console.error('internal error:', err);
  const internal = new ApiError('INTERNAL_ERROR', 'An internal error occurred.');
  return jsonResponse(internal.toBody(), internal.status, { 'Cache-Control': NO_STORE });
}

/** What a public GET handler returns; the response layer adds the headers. */
export interface RestResult {
  body: unknown;
  /** set on paginated lists: gives the Link header */
  page?: { page: number; totalPages: number };
}

export type CachePolicy = 'snapshot' | 'no-store';

/**
 * Runs a public GET handler against one snapshot. With the snapshot policy the
 * ETag depends only on the snapshot and the URL, so a matching If-None-Match is
 * answered 304 before any query runs.
 */
export async function snapshotResponse(
  request: Request,
  url: URL,
  snapshot: Snapshot,
  cache: CachePolicy,
  run: () => RestResult | Promise<RestResult>,
): Promise<Response> {
  const headers: Record<string, string> = { 'X-Snapshot-Id': snapshot.id };
  if (cache === 'snapshot') {
    const etag = weakEtag(snapshot.id, url);
    headers.ETag = etag;
    headers['Cache-Control'] = SNAPSHOT_CACHE_CONTROL;
    if (etagMatches(request.headers.get('If-None-Match'), etag)) {
      return new Response(null, { status: 304, headers: { ...corsHeaders(), ...headers } });
    }
  } else {
    headers['Cache-Control'] = NO_STORE;
  }
  const result = await run();
  if (result.page) {
    const link = paginationLink(url, result.page.page, result.page.totalPages);
    if (link) headers.Link = link;
  }
  return jsonResponse(result.body, 200, headers);
}

/** HEAD is GET without a body, with the same headers. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
