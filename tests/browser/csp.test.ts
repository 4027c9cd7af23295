/**
 * The pages' Content-Security-Policy, enforced by Chromium on the real node
 * (scripts/serve.ts): every kind of page loads with no CSP violation, no console
 * error and no browser error (its log), with its stylesheet applied; the search
 * form, the compare page and the charts work under it; the build ships no inline
 * script or style for it to refuse. And what other origins may do: a page on
 * another origin reads the API, the VIC cards, llms.txt and the refusals of /mcp (CORS), may
 * not read a page, and under COEP may embed what says CORP cross-origin but not a
 * page or the site's own files.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.ts';
import { PERMISSIONS_POLICY, pageContentSecurityPolicy } from '../../src/web/security-headers.ts';
import { builtSite, type BuiltSite } from '../site/fixture/built-site.ts';
import { HOSTILE_SLUG } from '../site/fixture/hostile.ts';
import { freePort, startServer, type RunningServer } from '../site/fixture/serve.ts';
import { launchChromium, openPage } from './chromium.ts';

const REPORT_PATH = '/laporan/web-development-indonesia-2026';

let site: BuiltSite;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let other: http.Server;
let otherOrigin = '';
let slugs: string[] = [];
const pages: Record<string, string> = {};

/** Another origin: a blank page, and one that requires CORP of everything it embeds (COEP). */
function startOtherOrigin(port: number): Promise<http.Server> {
  const s = http.createServer((req, res) => {
    const coep = req.url === '/coep' ? { 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...coep });
    res.end('<!doctype html><title>another origin</title><p>elsewhere</p>');
  });
  return new Promise((resolve) => s.listen(port, '127.0.0.1', () => resolve(s)));
}

beforeAll(async () => {
  site = await builtSite();
  slugs = fs
    .readdirSync(path.join(site.clientDir, 'provider'))
    .filter((f) => f.endsWith('.html') && !f.startsWith(HOSTILE_SLUG))
    .map((f) => f.slice(0, -5));
  const category = fs.readdirSync(path.join(site.clientDir, 'kategori')).find((f) => f.endsWith('.html'))!.slice(0, -5);
  Object.assign(pages, {
    home: '/',
    provider: `/provider/${slugs[0]}`,
    landing: `/${fs.readdirSync(site.clientDir).find((f) => f.includes('-terbaik-'))!.slice(0, -5)}`,
    category: `/kategori/${category}`,
    report: REPORT_PATH,
    method: '/metode-peringkat',
    'api docs': '/api-docs',
    search: '/search?q=website',
    compare: `/compare?a=${slugs[0]}&b=${slugs[1]}`,
    'not found': '/no-such-page',
  });
  const port = await freePort();
  otherOrigin = `http://127.0.0.1:${port}`;
  [server, browser, other] = await Promise.all([startServer(site), launchChromium(), startOtherOrigin(port)]);
  // The node answers on 127.0.0.1; the other origin differs by port, as two sites would.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => other?.close(r));
});

async function open(pathname: string): Promise<{ page: Page; errors: string[]; status: number; csp: string | null }> {
  const response = fetch(server.origin + pathname);
  const { page, errors, status } = await openPage(context, server.origin + pathname);
  return { page, errors, status, csp: (await response).headers.get('content-security-policy') };
}

/**
 * What in a page the CSP would refuse: a script that runs, a style element or
 * attribute, an event handler attribute, a javascript: URL. Tags are read with
 * their double-quoted attributes (Astro quotes every attribute and escapes `<` in
 * text), so hostile text inside an attribute value is not taken for a tag. JSON-LD
 * is data: CSP governs scripts that run, and a type other than JavaScript never runs.
 */
function inlineCode(html: string): string[] {
  const found: string[] = [];
  for (const [tag, name, attrs] of html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>"]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes = [...attrs!.matchAll(/\s+([^\s=>"]+)(?:="([^"]*)")?/g)].map(([, n, v]) => [n!.toLowerCase(), v ?? ''] as const);
    const type = attributes.find(([n]) => n === 'type')?.[1];
    if (name!.toLowerCase() === 'script' && type !== 'application/ld+json') found.push(tag);
    if (name!.toLowerCase() === 'style') found.push(tag);
    for (const [n, v] of attributes) if (n === 'style' || n.startsWith('on') || /^\s*javascript:/i.test(v)) found.push(tag);
  }
  return found;
}

describe('the pages under their CSP', () => {
  const csp = pageContentSecurityPolicy(loadEnv({}).securityHeaders);

  it.each(['home', 'provider', 'landing', 'category', 'report', 'method', 'api docs', 'search', 'compare', 'not found'])(
    'the %s page loads with no CSP violation and no error, its stylesheet applied',
    async (kind) => {
      const { page, errors, status, csp: sent } = await open(pages[kind]!);
      expect(status).toBe(kind === 'not found' ? 404 : 200);
      expect(sent).toBe(csp);
      // The page's own 404 is the only error the browser may log (the document's status).
      const unexpected = kind === 'not found' ? errors.filter((e) => !/^(?:browser network: )?Failed to load resource: .* 404 /.test(e)) : errors;
      expect(unexpected).toEqual([]);
      const rules = await page.evaluate(() => [...document.styleSheets].reduce((n, sheet) => n + sheet.cssRules.length, 0));
      expect(rules).toBeGreaterThan(20);
      // The skip link is moved off screen by the stylesheet; unstyled it would sit at the top.
      expect(await page.locator('.skip-link').evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
      await page.close();
    },
  );

  it('turns off, in Chromium, every feature its Permissions-Policy names (each one Chromium knows)', async () => {
    const { page, errors } = await open('/');
    const named = PERMISSIONS_POLICY.split(', ').map((entry) => entry.replace('=()', ''));
    const policy = await page.evaluate(() => {
      const p = (document as unknown as { featurePolicy: { features: () => string[]; allowedFeatures: () => string[] } }).featurePolicy;
      return { known: p.features(), allowed: p.allowedFeatures() };
    });
    expect(named.filter((f) => !policy.known.includes(f))).toEqual([]);
    expect(named.filter((f) => policy.allowed.includes(f))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses what an injection would add, and the refusal is seen (the check above can fail)', async () => {
    const { page, errors } = await open(pages.provider!);
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { display: none }';
      document.head.append(style);
      await new Promise((r) => setTimeout(r, 100));
      return { script: (window as unknown as { __injected?: boolean }).__injected === true, hidden: getComputedStyle(document.body).display === 'none' };
    });
    expect(ran).toEqual({ script: false, hidden: false });
    expect(errors.some((e) => e.startsWith('CSP violation: script-src-elem'))).toBe(true);
    expect(errors.some((e) => e.startsWith('CSP violation: style-src-elem'))).toBe(true);
    await page.close();
  });

  it('the search form works: from a provider page to ranked results', async () => {
    const { page, errors } = await open(pages.provider!);
    await page.locator('#header-q').fill('website');
    await Promise.all([page.waitForURL(/\/search\?/), page.locator('form.header-search button[type=submit]').click()]);
    expect(await page.locator('ol.ranked > li').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the compare page works: two slugs in its form give both providers side by side', async () => {
    const { page, errors } = await open('/compare');
    await page.locator('#cmp-a').fill(slugs[0]!);
    await page.locator('#cmp-b').fill(slugs[1]!);
    await Promise.all([page.waitForURL(/\/compare\?a=/), page.locator('form.search-form button[type=submit]').click()]);
    const heads = await page.locator('table thead th a').allInnerTexts();
    expect(heads).toHaveLength(2);
    expect(await page.locator('h1').innerText()).toBe(`${heads[0]} vs ${heads[1]}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the charts of the report and a category page are drawn', async () => {
    for (const pathname of [REPORT_PATH, pages.category!]) {
      const { page, errors } = await open(pathname);
      const bars = await page.$$eval('svg.chart-svg [data-value] rect', (rects) => rects.map((r) => {
        const box = (r as SVGRectElement).getBBox();
        return { width: box.width, height: box.height };
      }));
      expect(bars.length, pathname).toBeGreaterThan(2);
      expect(bars.some((b) => b.width > 1 && b.height > 1), pathname).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('the build ships no inline script, style, style attribute or event handler', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith('.html')) files.push(full);
      }
    };
    walk(site.clientDir);
    const served = await Promise.all([pages.search!, pages.compare!].map(async (p) => (await fetch(server.origin + p)).text()));
    const htmls = [...files.map((f) => fs.readFileSync(f, 'utf8')), ...served];
    expect(htmls.length).toBeGreaterThan(50);
    const found = htmls.flatMap(inlineCode);
    expect(found).toEqual([]);
  });
});

describe('another origin', () => {
  interface Read {
    status: number;
    type: string | null;
    snapshot: string | null;
    etag: string | null;
    body: string;
  }

  /** Runs `run` in a page of the other origin, with the node's origin and a provider slug. */
  async function fromOtherOrigin<T>(pathname: string, run: (arg: { origin: string; slug: string }) => Promise<T>): Promise<T> {
    const page = await context.newPage();
    await page.goto(otherOrigin + pathname);
    try {
      return await page.evaluate(run, { origin: server.origin, slug: slugs[0]! });
    } finally {
      await page.close();
    }
  }

  it('reads the API, a VIC card and llms.txt with their exposed headers and the refusals of /mcp and the keyed API, and cannot read a page (CORS)', async () => {
    const read = await fromOtherOrigin('/', async ({ origin, slug }) => {
      const get = async (p: string, init?: RequestInit): Promise<Read | string> => {
        try {
          const r = await fetch(origin + p, init);
          return { status: r.status, type: r.headers.get('content-type'), snapshot: r.headers.get('x-snapshot-id'), etag: r.headers.get('etag'), body: await r.text() };
        } catch (err) {
          return String(err);
        }
      };
      return {
        search: await get('/api/v1/search?q=website'),
        vic: await get(`/provider/${slug}/vic.json`),
        llms: await get('/llms.txt'),
        mcp: await get('/mcp'),
        // X-API-Key needs a preflight; a wrong key is a 401 the page reads
        keyed: await get('/api/ai/recommend?q=website', { headers: { 'X-API-Key': 'pd_not-a-key' } }),
        page: await get(`/provider/${slug}`),
      };
    });
    const ok = (r: Read | string): Read => (typeof r === 'string' ? { status: 0, type: null, snapshot: null, etag: null, body: r } : r);
    expect(ok(read.search)).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    expect(ok(read.search).snapshot).toMatch(/\S/);
    expect(ok(read.search).etag).toMatch(/^W\//);
    expect(JSON.parse(ok(read.search).body).data.length).toBeGreaterThan(0);
    expect(ok(read.vic)).toMatchObject({ status: 200, type: 'application/ld+json; charset=utf-8' });
    expect(ok(read.llms)).toMatchObject({ status: 200, type: 'text/plain; charset=utf-8' });
    // /mcp answers only the origins of MCP_ALLOWED_ORIGINS (none here), and says so in an answer the page can read.
    expect(ok(read.mcp).status).toBe(403);
    expect(JSON.parse(ok(read.mcp).body).error.code).toBe('FORBIDDEN_ORIGIN');
    expect(ok(read.keyed).status).toBe(401);
    expect(JSON.parse(ok(read.keyed).body).error.code).toMatch(/KEY/);
    // Pages send no Access-Control-Allow-Origin: another origin's script cannot read them.
    expect(read.page).toMatch(/TypeError/);
  });

  it('under COEP require-corp embeds what says CORP cross-origin, never a page or the site\'s own files', async () => {
    const loads = await fromOtherOrigin('/coep', async ({ origin, slug }) => {
      const noCors = async (p: string) =>
        fetch(origin + p, { mode: 'no-cors' }).then(
          () => 'loaded',
          () => 'blocked',
        );
      return {
        api: await noCors('/api/v1/providers'),
        vic: await noCors(`/provider/${slug}/vic.json`),
        llms: await noCors('/llms.txt'),
        page: await noCors(`/provider/${slug}`),
        icon: await noCors('/favicon.svg'),
        sitemap: await noCors('/sitemap.xml'),
      };
    });
    expect(loads).toEqual({ api: 'loaded', vic: 'loaded', llms: 'loaded', page: 'blocked', icon: 'blocked', sitemap: 'blocked' });
  });
});
