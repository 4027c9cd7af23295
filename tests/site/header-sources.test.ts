/**
 * The three places a page can come from send the same headers: the Node server
 * (scripts/serve.ts), a CDN reading the build's own dist/client/_headers (as
 * Cloudflare Pages applies it: tests/support/headers-file.ts), and a real nginx
 * with the shipped snippet (docs/nginx-static.conf) in front of that node. Every
 * file of the fixture build is asked for, and the dynamic paths (API, MCP, the
 * server-rendered pages) through nginx and from the node directly.
 */
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.ts';
import { securityHeaders, type ResponseKind } from '../../src/web/security-headers.ts';
import { headersFromFile, parseHeadersFile } from '../support/headers-file.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';
import { builtSite, ROOT, siteFolder, type BuiltSite } from './fixture/built-site.ts';
import { HOSTILE_SLUG } from './fixture/hostile.ts';
import { freePort, startServer, type RunningServer } from './fixture/serve.ts';

/** The headers the rules decide (names lowercase); Content-Type by its media type (nginx adds a charset to proxied HTML). */
const DECIDED = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'permissions-policy',
  'strict-transport-security',
  'cache-control',
  'access-control-allow-origin',
  'x-vic-version',
];

function decided(headers: Headers | Record<string, string>): Record<string, string> {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]) ?? undefined;
  const out: Record<string, string> = {};
  for (const name of DECIDED) {
    const value = get(name);
    if (value !== undefined) out[name] = value;
  }
  const type = get('content-type');
  if (type) out['content-type'] = type.split(';')[0]!.trim();
  return out;
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const defaults = loadEnv({}).securityHeaders;
const security = (kind: ResponseKind) => lower(securityHeaders(defaults, kind));

let site: BuiltSite;
let node: RunningServer;
let nginx: RunningNginx;
let nginxOrigin = '';
let slugs: string[] = [];

beforeAll(async () => {
  site = await builtSite();
  node = await startServer(site);
  const port = await freePort();
  nginxOrigin = `http://127.0.0.1:${port}`;
  const http = `
  upstream directory_node { server 127.0.0.1:${new URL(node.origin).port}; }
  server {
    listen 127.0.0.1:${port};
    root ${siteFolder(site)};
    include ${path.join(ROOT, 'docs/nginx-static.conf')};
  }`;
  nginx = await startNginx(fs.mkdtempSync(path.join(site.dir, 'nginx-sources-')), http, { ready: async () => (await fetch(`${nginxOrigin}/healthz`)).ok });
  slugs = fs
    .readdirSync(path.join(site.clientDir, 'provider'))
    .filter((f) => f.endsWith('.html') && !f.startsWith(HOSTILE_SLUG))
    .map((f) => f.slice(0, -5));
});

afterAll(async () => {
  await nginx?.stop();
  await node?.stop();
});

/** Every file of the build as the URL a visitor asks for (pages without .html, the home page as /). */
function siteUrls(): string[] {
  const urls: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (rel !== '/_headers') urls.push(rel === '/index.html' ? '/' : rel.replace(/\.html$/, ''));
    }
  };
  walk(site.clientDir, '');
  return urls.sort();
}

const kindOf = (url: string): ResponseKind =>
  /\/vic\.json$|\.txt$/.test(url) ? 'shared' : /^\/(?:_astro\/|sitemap)/.test(url) ? 'own' : 'page';

describe('one set of headers, three sources', () => {
  it('every file of the build: the node, the build\'s _headers and nginx agree', async () => {
    const rules = parseHeadersFile(fs.readFileSync(path.join(site.clientDir, '_headers'), 'utf8'));
    const urls = siteUrls();
    expect(urls.length).toBeGreaterThan(100);
    const kinds = new Set<ResponseKind>();
    for (const url of urls) {
      const [fromNode, fromNginx] = await Promise.all([fetch(node.origin + url), fetch(nginxOrigin + url)]);
      expect([fromNode.status, fromNginx.status], url).toEqual([200, 200]);
      const expected = decided(fromNode.headers);
      expect(decided(fromNginx.headers), `nginx ${url}`).toEqual(expected);
      // A CDN types a file by its extension (as the node does); the rules give the rest.
      const cdn = headersFromFile(rules, url, { 'content-type': fromNode.headers.get('content-type')! });
      expect(decided(cdn), `_headers ${url}`).toEqual(expected);
      const kind = kindOf(url);
      kinds.add(kind);
      expect(expected, url).toMatchObject(security(kind));
      await Promise.all([fromNode.arrayBuffer(), fromNginx.arrayBuffer()]);
    }
    expect([...kinds].sort()).toEqual(['own', 'page', 'shared']);
  });

  it('the dynamic paths: nginx passes the node\'s headers through, once each', async () => {
    const [a, b] = slugs;
    const cases: [string, ResponseKind, number][] = [
      ['/api/v1/providers', 'shared', 200],
      [`/api/v1/providers/${a}`, 'shared', 200],
      ['/api/v1/search?q=website', 'shared', 200],
      ['/api/v1/reports/web-development-indonesia-2026', 'shared', 200],
      ['/api/v1/openapi.json', 'shared', 200],
      ['/api/v1/no-such-route', 'shared', 404],
      ['/mcp', 'shared', 200],
      ['/healthz', 'shared', 200],
      ['/search?q=website', 'page', 200],
      [`/compare?a=${a}&b=${b}`, 'page', 200],
      ['/no-such-page', 'page', 404],
    ];
    for (const [url, kind, status] of cases) {
      const [fromNode, fromNginx] = await Promise.all([fetch(node.origin + url), fetch(nginxOrigin + url)]);
      expect([fromNode.status, fromNginx.status], url).toEqual([status, status]);
      const expected = decided(fromNode.headers);
      expect(expected, url).toMatchObject(security(kind));
      // nginx's own 404 page keeps the page rule's caching; everything else is the node's answer as sent.
      if (url === '/no-such-page') delete expected['cache-control'];
      expect(decided(fromNginx.headers), `nginx ${url}`).toMatchObject(expected);
      if (kind === 'shared') expect(fromNode.headers.get('access-control-allow-origin'), url).toBe('*');
      await Promise.all([fromNode.arrayBuffer(), fromNginx.arrayBuffer()]);
    }
  });

  it("an operator's settings reach the node and the generated rules alike (HSTS off, an extra connect-src)", async () => {
    const settings = { HSTS_MAX_AGE: '0', CSP_CONNECT_SRC: 'https://api.direktori.example.id' };
    const tuned = await startServer(site, settings);
    try {
      const headersFile = execFileSync(process.execPath, [path.join(ROOT, 'scripts/header-rules.ts'), 'headers'], { env: { ...process.env, ...settings }, encoding: 'utf8' });
      const rules = parseHeadersFile(headersFile);
      for (const url of ['/', `/provider/${slugs[0]}/vic.json`, '/api/v1/providers', '/search?q=website']) {
        const res = await fetch(tuned.origin + url);
        expect(res.headers.get('strict-transport-security'), url).toBeNull();
        if (!url.startsWith('/api/') && !url.startsWith('/search')) {
          expect(decided(headersFromFile(rules, url, { 'content-type': res.headers.get('content-type')! })), url).toEqual(decided(res.headers));
        }
        await res.arrayBuffer();
      }
      const page = await fetch(`${tuned.origin}/`);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self' https://api.direktori.example.id;");
    } finally {
      await tuned.stop();
    }
  });

  it('refusals carry them too: a POST to a page (405) and an oversized header section (431)', async () => {
    const refused = await fetch(`${node.origin}/`, { method: 'POST', body: 'x' });
    expect(refused.status).toBe(405);
    expect(decided(refused.headers)).toMatchObject(security('shared'));
    const huge = await fetch(`${node.origin}/api/v1/search?q=${'a'.repeat(20_000)}`);
    expect(huge.status).toBe(431);
    expect(decided(huge.headers)).toMatchObject(security('shared'));
  });
});
