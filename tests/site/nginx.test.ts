/**
 * dist/client served by a real nginx with the shipped snippet (docs/nginx-static.conf):
 * the CDN path gives VIC cards, sitemaps and llms.txt the same headers as the Node path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite, ROOT, type BuiltSite } from './fixture/built-site.ts';
import { freePort } from './fixture/serve.ts';
import { loadEnv } from '../../src/env.ts';
import { staticHeaders } from '../../src/site/static-headers.ts';

const NGINX = '/usr/sbin/nginx';
let site: BuiltSite;
let nginx: ChildProcess | undefined;
let origin = '';
let slug = '';
let nginxLog = '';

beforeAll(async () => {
  if (!fs.existsSync(NGINX)) throw new Error(`nginx is missing at ${NGINX}: apt-get install -y nginx`);
  site = await builtSite();
  slug = fs.readdirSync(path.join(site.clientDir, 'provider')).find((f) => f.endsWith('.html'))!.slice(0, -5);
  const port = await freePort();
  const upstreamPort = await freePort(); // nothing listens: static paths must not need the Node server
  origin = `http://127.0.0.1:${port}`;
  const dir = fs.mkdtempSync(path.join(site.dir, 'nginx-'));
  for (const sub of ['tmp', 'logs']) fs.mkdirSync(path.join(dir, sub));
  // As root, nginx's workers drop to an unprivileged user that cannot read a clone
  // under a 0700 folder (mktemp -d): keep them as the user running the test.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const conf = `
daemon off;
${user}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream directory_node { server 127.0.0.1:${upstreamPort}; }
  server {
    listen 127.0.0.1:${port};
    root ${site.clientDir};
    include ${path.join(ROOT, 'docs/nginx-static.conf')};
  }
}`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'logs/error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  nginx.stderr!.on('data', (d) => (nginxLog += d));
  const deadline = Date.now() + 30_000;
  let last = 'no answer';
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}: ${nginxLog}${readIf(path.join(dir, 'logs/error.log'))}`);
    try {
      const res = await fetch(`${origin}/robots.txt`);
      if (res.ok) break;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message; // not yet listening
    }
    if (Date.now() > deadline) {
      throw new Error(`nginx did not start (last: ${last}): ${nginxLog}${readIf(path.join(dir, 'logs/error.log'))}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGQUIT');
    await exited;
  }
});

const readIf = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');

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
