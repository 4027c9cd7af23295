/**
 * The built static surface against the real Node server (scripts/serve.ts):
 * sitemaps (schema-valid, split, complete, every URL 200), llms.txt links, VIC
 * headers, escaping of hostile text, and nothing unpublished or dashboard-only in
 * any file under dist/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite, INDEXNOW_KEY, ROOT, SITEMAP_MAX_URLS, WEB_URL, type BuiltSite } from './fixture/built-site.ts';
import { FORBIDDEN_MARKERS, HOSTILE_NAME, HOSTILE_SLUG } from './fixture/hostile.ts';
import { startServer, type RunningServer } from './fixture/serve.ts';
import { VIC_VERSION } from '../../src/web/vic-version.ts';

let site: BuiltSite;
let server: RunningServer;

beforeAll(async () => {
  site = await builtSite();
  server = await startServer(site);
});
afterAll(async () => {
  await server?.stop();
});

const sitemapFiles = () => fs.readdirSync(site.clientDir).filter((f) => /^sitemap.*\.xml$/.test(f)).sort();
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const read = (rel: string) => fs.readFileSync(path.join(site.clientDir, rel), 'utf8');
const publishedSlugs = () => {
  const db = new Database(site.dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT slug FROM published_providers ORDER BY slug').pluck().all() as string[]);
  } finally {
    db.close();
  }
};

function xmllint(schema: string, file: string): void {
  try {
    execFileSync('xmllint', ['--noout', '--schema', schema, file], { stdio: 'pipe' });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT') throw new Error('xmllint is missing: apt-get install -y libxml2-utils');
    throw new Error(`${path.basename(file)} is not valid against ${path.basename(schema)}:\n${e.stderr?.toString()}`);
  }
}

describe('sitemaps', () => {
  it('validate against the sitemap XSDs', () => {
    for (const f of sitemapFiles()) {
      const schema = f === 'sitemap.xml' ? path.join(import.meta.dirname, 'fixture/siteindex.xsd') : path.join(ROOT, 'node_modules/sitemap/schema/sitemap.xsd');
      xmllint(schema, path.join(site.clientDir, f));
    }
  });

  it('split at the lowered threshold into numbered files, all listed in the index', () => {
    const files = sitemapFiles().filter((f) => f !== 'sitemap.xml');
    expect(files).toContain('sitemap-providers-2.xml');
    expect(files).toContain('sitemap-vic-2.xml');
    for (const f of files) expect(locs(read(f)).length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
    expect(locs(read('sitemap.xml')).sort()).toEqual(files.map((f) => `${WEB_URL}/${f}`).sort());
  });

  it('list exactly the published providers and their VIC cards', () => {
    const published = publishedSlugs();
    const all = (prefix: string) => sitemapFiles().filter((f) => f.startsWith(prefix)).flatMap((f) => locs(read(f)));
    expect(all('sitemap-providers').sort()).toEqual(published.map((s) => `${WEB_URL}/provider/${s}`).sort());
    expect(all('sitemap-vic').sort()).toEqual(published.map((s) => `${WEB_URL}/provider/${s}/vic.json`).sort());
  });

  it('carry lastmod from the data (updatedAt, else publishedAt), never the build time', () => {
    const db = new Database(site.dbFile, { readonly: true });
    const rows = db.prepare('SELECT slug, coalesce(updated_at, published_at) AS d FROM published_providers').all() as { slug: string; d: string }[];
    db.close();
    const expected = new Map(rows.map((r) => [`${WEB_URL}/provider/${r.slug}`, new Date(r.d).toISOString().replace(/\.\d{3}Z$/, 'Z')]));
    const xml = sitemapFiles().filter((f) => f.startsWith('sitemap-providers')).map(read).join('');
    const pairs = [...xml.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)];
    expect(pairs.length).toBe(rows.length);
    for (const [, loc, lastmod] of pairs) expect(lastmod).toBe(expected.get(loc!));
  });

  it('every URL answers 200 without a redirect', async () => {
    const urls = sitemapFiles().filter((f) => f !== 'sitemap.xml').flatMap((f) => locs(read(f)));
    expect(urls.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const url of urls) {
      const res = await fetch(server.local(url), { redirect: 'manual' });
      if (res.status !== 200) failures.push(`${res.status} ${url}`);
      await res.arrayBuffer();
    }
    expect(failures).toEqual([]);
  });

  it('robots.txt names the index and keeps /api/ai/ and /mcp out', async () => {
    const res = await fetch(`${server.origin}/robots.txt`);
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toContain(`Sitemap: ${WEB_URL}/sitemap.xml`);
    expect(text).toMatch(/^Disallow: \/api\/ai\/$/m);
    expect(text).toMatch(/^Disallow: \/mcp$/m);
  });
});

describe('llms.txt and the IndexNow key file', () => {
  it('is text/plain and every link is absolute and answers', async () => {
    const res = await fetch(`${server.origin}/llms.txt`);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const link of links) {
      expect(link).toMatch(/^https:\/\//);
      const r = await fetch(server.local(link), { redirect: 'manual' });
      await r.arrayBuffer();
      // The AI endpoint needs a key: it answers, with 401 API_KEY_REQUIRED.
      const ok = link.includes('/api/ai/') ? r.status === 401 : r.status === 200;
      if (!ok) failures.push(`${r.status} ${link}`);
    }
    expect(failures).toEqual([]);
  });

  it('serves the key at /{INDEXNOW_KEY}.txt', async () => {
    const res = await fetch(`${server.origin}/${INDEXNOW_KEY}.txt`);
    expect(res.status).toBe(200);
    expect((await res.text()).trim()).toBe(INDEXNOW_KEY);
  });
});

describe('VIC cards through the Node server', () => {
  it('have the JSON-LD type, Cache-Control and X-VIC-Version equal to meta.vicVersion', async () => {
    const slug = publishedSlugs()[0]!;
    const res = await fetch(`${server.origin}/provider/${slug}/vic.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await res.json()) as { '@id': string; meta: { vicVersion: number }; trust: { confidenceScore: unknown } };
    expect(res.headers.get('x-vic-version')).toBe(String(card.meta.vicVersion));
    expect(card.meta.vicVersion).toBe(VIC_VERSION);
    expect(card['@id']).toBe(`${WEB_URL}/provider/${slug}/vic.json`);
    expect(typeof card.trust.confidenceScore).toBe('number');
  });

  it('answer a plain 404 for unknown and unpublished providers', async () => {
    for (const slug of ['no-such-provider', FORBIDDEN_MARKERS.unpublishedSlug, FORBIDDEN_MARKERS.approvedNoDateSlug]) {
      expect((await fetch(`${server.origin}/provider/${slug}/vic.json`)).status).toBe(404);
      expect((await fetch(`${server.origin}/provider/${slug}`)).status).toBe(404);
    }
  });
});

describe('hostile provider text', () => {
  it('is escaped in HTML and cannot close the JSON-LD script element', () => {
    const html = read(`provider/${HOSTILE_SLUG}.html`);
    // Inside a double-quoted attribute only " and & are special (Astro escapes those);
    // outside attributes, no hostile text may appear as markup.
    const outsideAttributes = html.replace(/="[^"]*"/g, '=""');
    expect(outsideAttributes).not.toContain('<script>alert(');
    expect(outsideAttributes).not.toContain('<b>bold');
    expect(html).not.toMatch(/content="[^"]*"Co"/);
    expect(html).toContain('Evil &lt;/script&gt;&lt;script&gt;alert(');
    const scripts = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const s of scripts) expect(s).not.toMatch(/[<>\u2028\u2029]|&(?!quot;)/);
    const ld = JSON.parse(scripts[0]!) as { name: string };
    expect(ld.name).toBe(HOSTILE_NAME);
    // Nothing after the JSON-LD opened a new script: the only <script> tags are ours.
    expect(outsideAttributes.match(/<script\b/g)!.length).toBe(scripts.length);
  });

  it('is escaped in XML and in the VIC JSON', () => {
    const card = JSON.parse(read(`provider/${HOSTILE_SLUG}/vic.json`)) as { entity: { name: string } };
    expect(card.entity.name).toBe(HOSTILE_NAME);
    for (const f of sitemapFiles()) expect(read(f)).not.toMatch(/<script|&(?!amp;|lt;|gt;|quot;|apos;)/);
    const landing = fs.readdirSync(site.clientDir).filter((f) => f.includes('-terbaik-')).map((f) => read(f)).find((h) => h.includes('Evil &lt;/script'));
    expect(landing, 'the hostile provider is listed on a landing page').toBeDefined();
    expect(landing).not.toContain('<script>alert(');
  });
});

describe('nothing private under dist/', () => {
  it('no unpublished provider, dashboard field or hidden commercial value in any file', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(site.distDir);
    expect(files.length).toBeGreaterThan(50);
    const needles = [...Object.values(FORBIDDEN_MARKERS), 'moderationNotes', 'moderation_notes', 'internalStatus', 'internal_status'];
    // Server code may name the private tables (the snapshot verifier lists every table); pages may not.
    const clientNeedles = ['provider_dashboard', 'provider_commercial_raw'];
    const hits: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(f, 'latin1');
      const isClient = f.startsWith(site.clientDir + path.sep);
      for (const n of isClient ? [...needles, ...clientNeedles] : needles) if (text.includes(n)) hits.push(`${path.relative(site.distDir, f)}: ${n}`);
    }
    expect(hits).toEqual([]);
  });

  it('every published provider has a page and a card, and nothing else does', () => {
    const pages = fs.readdirSync(path.join(site.clientDir, 'provider')).filter((f) => f.endsWith('.html')).map((f) => f.slice(0, -5));
    expect(pages.sort()).toEqual(publishedSlugs());
  });
});
