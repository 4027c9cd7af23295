/**
 * dist/client served by a real nginx with the shipped snippet (docs/nginx-static.conf):
 * the CDN path gives VIC cards, sitemaps and llms.txt the same headers as the Node path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite, ROOT, siteFolder, type BuiltSite } from './fixture/built-site.ts';
import { freePort } from './fixture/serve.ts';
import { loadEnv } from '../../src/env.ts';
import { staticHeaders } from '../../src/site/static-headers.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';

let site: BuiltSite;
let nginx: RunningNginx | undefined;
let origin = '';
let slug = '';

beforeAll(async () => {
  site = await builtSite();
  slug = fs.readdirSync(path.join(site.clientDir, 'provider')).find((f) => f.endsWith('.html'))!.slice(0, -5);
  const port = await freePort();
  const upstreamPort = await freePort(); // nothing listens: static paths must not need the Node server
  origin = `http://127.0.0.1:${port}`;
  const http = `
  upstream directory_node { server 127.0.0.1:${upstreamPort}; }
  server {
    listen 127.0.0.1:${port};
    root ${siteFolder(site)};
    include ${path.join(ROOT, 'docs/nginx-static.conf')};
  }`;
  nginx = await startNginx(fs.mkdtempSync(path.join(site.dir, 'nginx-')), http, { ready: async () => (await fetch(`${origin}/robots.txt`)).ok });
});

afterAll(async () => {
  await nginx?.stop();
});

describe('nginx with the shipped snippet', () => {
  it('gives vic.json its content type, Cache-Control and X-VIC-Version', async () => {
    const res = await fetch(`${origin}/provider/${slug}/vic.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await res.json()) as { meta: { vicVersion: number } };
    expect(res.headers.get('x-vic-version')).toBe(String(card.meta.vicVersion));
  });

  it('matches the Node rules for sitemaps, llms.txt and robots.txt', async () => {
    for (const p of ['/sitemap.xml', '/sitemap-providers-2.xml', '/llms.txt', '/robots.txt']) {
      const res = await fetch(`${origin}${p}`);
      expect(res.status, p).toBe(200);
      const expected = staticHeaders(loadEnv({}).securityHeaders).forPath(p);
      expect(res.headers.get('content-type'), p).toBe(expected['Content-Type']);
      expect(res.headers.get('cache-control'), p).toBe(expected['Cache-Control']);
    }
  });

  it('serves pages without a trailing slash or redirect, and 404s unknown cards', async () => {
    const page = await fetch(`${origin}/provider/${slug}`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<html lang="id">');
    expect((await fetch(`${origin}/provider/no-such-provider/vic.json`)).status).toBe(404);
  });
});
