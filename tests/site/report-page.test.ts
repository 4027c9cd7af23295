/**
 * The report page in the built fixture site: canonical URL, Dataset JSON-LD
 * (escaped, pointing at the API's JSON), listed in the taxonomy sitemap and in
 * llms.txt, linked from the home page and from its category page only, and built
 * from published providers alone: the unpublished fixture records are in the same
 * category and city, and neither they nor the hidden USD amounts reach the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResponse } from '../../src/schemas/api/responses.ts';
import { formatCount, formatDate, isoDateJakarta } from '../../src/text/format.ts';
import { API_URL, builtSite, WEB_URL, type BuiltSite } from './fixture/built-site.ts';
import { FORBIDDEN_MARKERS } from './fixture/hostile.ts';
import { startServer, type RunningServer } from './fixture/serve.ts';
import { expectedName } from '../http/statistics-oracle.ts';

const SLUG = 'web-development-indonesia-2026';
const PAGE_URL = `${WEB_URL}/laporan/${SLUG}`;

let site: BuiltSite;
let server: RunningServer;
let html: string;
let report: ReportResponse;
/** The report's providers read straight from the snapshot: how many, and the latest update. */
let published: { n: number; latest: string };
let everyone: number;
/** Spellings of each city among all published providers: [city_slug, city, count]. */
let spellings: { slug: string; city: string; n: number }[];

beforeAll(async () => {
  site = await builtSite();
  server = await startServer(site);
  html = fs.readFileSync(path.join(site.clientDir, 'laporan', `${SLUG}.html`), 'utf8');
  report = (await (await fetch(`${server.origin}/api/v1/reports/${SLUG}`)).json()) as ReportResponse;
  const db = new Database(site.dbFile, { readonly: true });
  const where = `country = 'ID' AND rowid IN (SELECT provider_rowid FROM provider_categories WHERE category_id IN
      (SELECT id FROM categories WHERE slug = :c OR parent_id = (SELECT id FROM categories WHERE slug = :c)))`;
  const c = report.data.category.slug;
  published = db.prepare(`SELECT count(*) AS n, max(coalesce(updated_at, published_at)) AS latest FROM published_providers WHERE ${where}`).get({ c }) as typeof published;
  spellings = db.prepare('SELECT city_slug AS slug, city, count(*) AS n FROM published_providers WHERE city_slug IS NOT NULL GROUP BY city_slug, city').all() as typeof spellings;
  everyone = (db.prepare(`SELECT count(*) AS n FROM providers WHERE ${where}`).get({ c }) as { n: number }).n;
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

const read = (rel: string) => fs.readFileSync(path.join(site.clientDir, rel), 'utf8');
const jsonLd = (page: string) =>
  [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => ({ raw: m[1]!, data: JSON.parse(m[1]!) as Record<string, unknown> }));

describe('report page metadata', () => {
  it('is served at /laporan/{slug} with its canonical URL, and unknown reports are 404', async () => {
    const res = await fetch(`${server.origin}/laporan/${SLUG}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(html);
    expect(html).toContain(`<link rel="canonical" href="${PAGE_URL}">`);
    expect(html).toMatch(/<html lang="id">/);
    expect((await fetch(`${server.origin}/laporan/no-such-report`)).status).toBe(404);
  });

  it('carries Dataset JSON-LD, escaped, whose download is the API report', () => {
    const blocks = jsonLd(html);
    for (const b of blocks) expect(b.raw).not.toMatch(/[<>\u2028\u2029]|&(?!quot;)/);
    const dataset = blocks.map((b) => b.data).find((d) => d['@type'] === 'Dataset')!;
    expect(dataset).toMatchObject({
      '@context': 'https://schema.org',
      name: report.data.title,
      url: PAGE_URL,
      temporalCoverage: String(report.data.year),
      dateModified: new Date(published.latest).toISOString(),
      distribution: [{ '@type': 'DataDownload', encodingFormat: 'application/json', contentUrl: `${API_URL}/api/v1/reports/${SLUG}` }],
    });
    expect(blocks.map((b) => b.data['@type'])).toContain('BreadcrumbList');
  });

  it('is in the taxonomy sitemap with the date of its data as lastmod, and in llms.txt', () => {
    const taxonomy = fs.readdirSync(site.clientDir).filter((f) => f.startsWith('sitemap-taxonomy')).map(read).join('');
    const lastmod = new Date(published.latest).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(taxonomy).toContain(`<url><loc>${PAGE_URL}</loc><lastmod>${lastmod}</lastmod></url>`);
    expect(read('llms.txt')).toContain(`](${PAGE_URL})`);
  });

  it('is linked from the home page and from its own category page, not from other categories', () => {
    const link = `href="/laporan/${SLUG}"`;
    expect(read('index.html')).toContain(link);
    expect(read(`kategori/${report.data.category.slug}.html`)).toContain(link);
    const others = fs.readdirSync(path.join(site.clientDir, 'kategori')).filter((f) => f !== `${report.data.category.slug}.html`);
    expect(others.length).toBeGreaterThan(3);
    for (const f of others) expect(read(`kategori/${f}`)).not.toContain(link);
  });
});

describe('report page data', () => {
  it('counts published providers only: the unpublished fixture records are left out', () => {
    expect(everyone - published.n).toBeGreaterThanOrEqual(2);
    expect(report.data.totalProviders).toBe(published.n);
    expect(html).toContain(`data-key="totalProviders">${formatCount(published.n)}<`);
  });

  it('names each city by its one name: the most common well-cased spelling of all published providers', () => {
    const bySlug = new Map<string, Map<string, number>>();
    for (const s of spellings) bySlug.set(s.slug, (bySlug.get(s.slug) ?? new Map<string, number>()).set(s.city, s.n));
    expect(report.data.byCity.length).toBeGreaterThan(0);
    for (const c of report.data.byCity) expect(c.city, c.citySlug).toBe(expectedName(bySlug.get(c.citySlug)!));
    for (const c of report.data.byCity) expect(html).toContain(`<tr data-key="${c.citySlug}"><th scope="row">${c.city}</th>`);
  });

  it('states the date of its data, never the build time, so rebuilding the same data gives the same page', () => {
    expect(html).toContain(`<time datetime="${isoDateJakarta(published.latest)}">${formatDate(published.latest)}</time>`);
    expect(html).not.toContain(report.meta.generatedFrom);
    expect(html).not.toContain(report.meta.builtAt);
  });

  it('shows no unpublished provider, dashboard field or hidden commercial value', () => {
    for (const marker of [...Object.values(FORBIDDEN_MARKERS), 'moderationNotes', 'internalStatus', 'MODNOTE', 'provider_dashboard']) {
      expect(html, marker).not.toContain(marker);
    }
    // The fixture's hidden amounts in any spelling the page could use.
    for (const amount of [Number(FORBIDDEN_MARKERS.hiddenRate), Number(FORBIDDEN_MARKERS.hiddenBudget)]) {
      expect(html).not.toContain(new Intl.NumberFormat('id-ID').format(amount));
      expect(html).not.toContain(new Intl.NumberFormat('id-ID', { notation: 'compact', maximumFractionDigits: 1 }).format(amount));
    }
  });
});
