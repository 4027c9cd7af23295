/** Shared state of the over-HTTP API tests: the fixture, the running server and a checked GET. */
import { expect } from 'vitest';
import type { Fixture, RunningServer } from './fixture.ts';
import { isPublished } from './fixture.ts';
import type { OpenApiValidator } from './openapi-validator.ts';

export interface ApiResult {
  status: number;
  headers: Headers;
   
  body: any;
}

export interface ApiContext {
  fixture: Fixture;
  server: RunningServer;
  validator: OpenApiValidator;
  publishedSlugs: Set<string>;
  unpublishedSlugs: Set<string>;
}

export const ctx = {} as ApiContext;

export function initSlugSets(fixture: Fixture): void {
  ctx.publishedSlugs = new Set(fixture.providers.filter(isPublished).map((p) => p.slug));
  ctx.unpublishedSlugs = new Set(fixture.providers.filter((p) => !isPublished(p)).map((p) => p.slug));
}

/**
 * GET over HTTP. Every JSON body is validated against openapi.json (by path and
 * status), every error against the envelope, and every provider slug in it must
 * be published.
 */
export async function get(pathAndQuery: string, init: RequestInit = {}): Promise<ApiResult> {
  const res = await fetch(ctx.server.url + pathAndQuery, init);
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  const pathname = new URL(ctx.server.url + pathAndQuery).pathname;
  if (body !== null && res.status !== 304) {
    expect(ctx.validator.errors(pathname, res.status, body), `${pathAndQuery} -> ${res.status}`).toEqual([]);
    if (res.status >= 400) {
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.details).toBeNull();
    }
    for (const slug of slugsIn(body)) expect(ctx.publishedSlugs.has(slug), `unpublished ${slug} leaked`).toBe(true);
    expect(text).not.toMatch(/SECRET-|moderationNotes|internalStatus/);
    // the unpublished provider's unique word may be echoed in meta.q, never in data
    expect(JSON.stringify(body.data ?? null)).not.toContain('secretunpublishedword');
  }
  return { status: res.status, headers: res.headers, body };
}

function slugsIn(body: { data?: unknown }): string[] {
  const data = body.data;
  const items = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  return items
    .filter((i): i is { slug: string; companyName: string } => typeof i === 'object' && i !== null && 'companyName' in i)
    .map((i) => i.slug);
}

export const expectError = (r: ApiResult, status: number, code: string) => {
  expect(r.status).toBe(status);
  expect(r.body.error.code).toBe(code);
  expect(typeof r.body.error.message).toBe('string');
};
