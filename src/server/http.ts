/**
 * HTTP header rules of the public API (docs/interface.md): CORS, caching tied
 * to the snapshot, weak ETags, pagination links.
 */
import { createHash } from 'node:crypto';

export const CORS_ALLOW_HEADERS = 'X-API-Key, Authorization, Content-Type, MCP-Protocol-Version, If-None-Match';
export const CORS_EXPOSE_HEADERS = [
  'ETag',
  'Link',
  'X-Snapshot-Id',
  'X-Request-ID',
  'Retry-After',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'RateLimit',
  'RateLimit-Policy',
].join(', ');

/** A snapshot changes only by replacement: a short max-age, then revalidate by ETag. */
export const SNAPSHOT_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
export const NO_STORE = 'no-store';

export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS };
}

export function preflightHeaders(allow: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': allow,
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
    'Access-Control-Max-Age': '86400',
    Allow: allow,
  };
}

/** Weak ETag from the snapshot id and the request (path and query as sent). */
export function weakEtag(snapshotId: string, url: URL): string {
  const digest = createHash('sha1').update(snapshotId).update('\n').update(url.pathname + url.search).digest('base64url');
  return `W/"${digest}"`;
}

/** True when If-None-Match lists this ETag (weak comparison) or is `*`. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/** `Link` with rel="prev"/"next" for a paginated list; relative URLs keep the host the client used. */
export function paginationLink(url: URL, page: number, totalPages: number): string | null {
  const at = (p: number) => {
    const params = new URLSearchParams(url.search);
    params.set('page', String(p));
    return `<${url.pathname}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${at(Math.min(page - 1, Math.max(totalPages, 1)))}; rel="prev"`);
  if (page < totalPages) links.push(`${at(page + 1)}; rel="next"`);
  return links.length ? links.join(', ') : null;
}
