/** The one response layer over HTTP: envelope, 404/405, HEAD, OPTIONS, CORS, ETag/304, Link, OpenAPI. */
import { describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../../src/server/rest/index.ts';
import { ctx, expectError, get } from './api-context.ts';

export function httpLayerCases(): void {
  describe('response layer', () => {
    it('404 NOT_FOUND for unknown /api paths, in the envelope', async () => {
      for (const p of ['/api', '/api/v1', '/api/v1/nope', '/api/v2/providers', '/api/v1/providers/a/b']) {
        const res = await fetch(ctx.server.url + p);
        expect(res.status, p).toBe(404);
        expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), details: null } });
      }
    });

    it('405 METHOD_NOT_ALLOWED with Allow', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await fetch(ctx.server.url + '/api/v1/providers', { method, body: method === 'DELETE' ? undefined : '{}' });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect((await res.json()).error.code).toBe('METHOD_NOT_ALLOWED');
      }
    });

    it('HEAD has the headers of GET and no body', async () => {
      const head = await fetch(ctx.server.url + '/api/v1/categories', { method: 'HEAD' });
      const getRes = await fetch(ctx.server.url + '/api/v1/categories');
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('etag')).toBe(getRes.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe(getRes.headers.get('content-type'));
    });

    it('OPTIONS preflight: 204 with the CORS headers', async () => {
      const res = await fetch(ctx.server.url + '/api/v1/search', { method: 'OPTIONS', headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' } });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
      for (const h of ['X-API-Key', 'Authorization', 'Content-Type', 'MCP-Protocol-Version']) {
        expect(res.headers.get('access-control-allow-headers')).toContain(h);
      }
    });

    it('CORS, X-Snapshot-Id, Cache-Control and a weak ETag; If-None-Match gives 304', async () => {
      const r = await get('/api/v1/providers?page=2');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      const expose = r.headers.get('access-control-expose-headers')!;
      for (const h of ['ETag', 'Link', 'X-Snapshot-Id', 'X-Request-ID', 'x-ratelimit-limit']) expect(expose).toContain(h);
      expect(r.headers.get('x-snapshot-id')).toMatch(/.+/);
      expect(r.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
      const etag = r.headers.get('etag')!;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(r.headers.get('link')).toMatch(/<\/api\/v1\/providers\?page=1>; rel="prev", <\/api\/v1\/providers\?page=3>; rel="next"/);
      const again = await fetch(ctx.server.url + '/api/v1/providers?page=2', { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const other = await get('/api/v1/providers?page=3');
      expect(other.headers.get('etag')).not.toBe(etag);
      const errors = await get('/api/v1/search?q=a');
      expect(errors.headers.get('access-control-allow-origin')).toBe('*');
      expect(errors.headers.get('etag')).toBeNull();
    });
  });

  describe('OpenAPI', () => {
    it('documents every route, generated from the route objects', async () => {
      const r = await get('/api/v1/openapi.json');
      expect(r.body.openapi).toBe('3.1.0');
      for (const route of REST_ROUTES) expect(Object.keys(r.body.paths), route.path).toContain(route.path);
      expect(r.body.paths['/api/v1/search'].get.parameters.find((p: { name: string }) => p.name === 'q').required).toBe(true);
      const limit = r.body.paths['/api/v1/providers'].get.parameters.find((p: { name: string }) => p.name === 'limit');
      expect(limit.schema).toMatchObject({ type: 'integer', default: 20, maximum: 50 });
    });

    it('a mutated body fails validation (the validator is real)', async () => {
      const r = await get('/api/v1/providers/hostile-name-co');
      const missing = structuredClone(r.body);
      delete missing.data.slug;
      expect(ctx.validator.errors('/api/v1/providers/x', 200, missing).length).toBeGreaterThan(0);
      const wrongType = structuredClone(r.body);
      wrongType.data.trustLevel = '3';
      expect(ctx.validator.errors('/api/v1/providers/x', 200, wrongType).length).toBeGreaterThan(0);
      const search = await get('/api/v1/search?q=website&limit=1');
      const badRank = structuredClone(search.body);
      badRank.data[0].search.keywordRank = 1.5;
      expect(ctx.validator.errors('/api/v1/search', 200, badRank).length).toBeGreaterThan(0);
      expect(ctx.validator.errors('/api/v1/search', 400, { error: { code: 'X' } }).length).toBeGreaterThan(0);
      expectError(await get('/api/v1/search'), 400, 'QUERY_REQUIRED');
    });
  });
}
