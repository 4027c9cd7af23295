/**
 * The market report page (/laporan/{slug}) and a category page's charts in a real
 * browser: every number on the report page equals the API's report of the same
 * snapshot, Chromium paints every chart (screenshot pixels, so an empty or broken
 * SVG fails), bars are drawn to scale, axe finds no violation at all, and the page
 * reads with JavaScript off and fits a phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResponse } from '../../src/schemas/api/responses.ts';
import { formatCount, formatDecimal, formatRupiah } from '../../src/text/format.ts';
import { REPORT_CITY_BARS } from '../../src/site/report-page.ts';
import { builtSite, ROOT } from '../site/fixture/built-site.ts';
import { startServer, type RunningServer } from '../site/fixture/serve.ts';
import { axeViolations, launchChromium, openPage } from './chromium.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ARTIFACTS = path.join(ROOT, 'tests/artifacts');
const SLUG = 'web-development-indonesia-2026';
const REPORT_PATH = `/laporan/${SLUG}`;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let report: ReportResponse['data'];
let categoryPathOfReport: string;
let siteDb: string;

beforeAll(async () => {
  const site = await builtSite();
  siteDb = site.dbFile;
  [server, browser] = await Promise.all([startServer(site), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const res = await fetch(`${server.origin}/api/v1/reports/${SLUG}`);
  expect(res.status).toBe(200);
  report = ((await res.json()) as ReportResponse).data;
  categoryPathOfReport = `/kategori/${report.category.slug}`;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(ctx: BrowserContext, pathname: string): Promise<{ page: Page; errors: string[] }> {
  const { page, errors, status } = await openPage(ctx, server.origin + pathname);
  expect(status).toBe(200);
  return { page, errors };
}

/** Rows of a table: [data-key, every cell's text]. */
const tableRows = (page: Page, figure: string) =>
  page.$$eval(`table[data-figure="${figure}"] tbody tr`, (rows) =>
    rows.map((r) => [r.getAttribute('data-key'), ...[...r.children].map((c) => (c as HTMLElement).innerText.trim())]),
  );

/** The data drawn in a chart: [label, value] of every mark. */
const chartMarks = (page: Page, svgId: string) =>
  page.$$eval(`svg#${svgId} [data-value]`, (gs) => gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]));

const money = (n: number | null) => (n === null ? '–' : formatRupiah(n));

describe('report page numbers', () => {
  it('equal the API report of the same snapshot, in tables, key figures and charts', async () => {
    const { page } = await open(context, REPORT_PATH);
    expect(report.totalProviders).toBeGreaterThan(5);
    expect(await page.locator('h1').innerText()).toBe(report.title);
    const key = (k: string) => page.locator(`[data-figure="key"] [data-key="${k}"]`).innerText();
    expect(await key('totalProviders')).toBe(formatCount(report.totalProviders));
    expect(await key('cityCount')).toBe(formatCount(report.byCity.length));
    expect(await key('averageRating')).toBe(`${formatDecimal(report.averageRating!)} / 5`);
    expect(await key('providersWithReviews')).toBe(`dari ${formatCount(report.providersWithReviews)} penyedia yang memiliki ulasan`);

    expect((await tableRows(page, 'byCity')).map((r) => r.slice(0, 3))).toEqual(report.byCity.map((c) => [c.citySlug, c.city, formatCount(c.count)]));
    expect((await tableRows(page, 'ratingDistribution')).map((r) => [r[0], r[2]])).toEqual(report.ratingDistribution.map((b) => [b.range, formatCount(b.count)]));
    // The unrated providers: counted apart, beside the chart and under the table, in no bucket.
    expect(report.providersWithoutReviews).toBeGreaterThan(0);
    expect(report.ratingDistribution.reduce((n, b) => n + b.count, 0)).toBe(report.providersWithReviews);
    const unrated = `${formatCount(report.providersWithoutReviews)} penyedia belum memiliki ulasan`;
    expect(await page.locator('section[aria-labelledby="rating"] figcaption [data-key="providersWithoutReviews"]').innerText()).toContain(unrated);
    expect(await page.locator('table[data-figure="ratingDistribution"] tfoot tr[data-key="providersWithoutReviews"] td').first().innerText()).toBe(formatCount(report.providersWithoutReviews));
    expect((await tableRows(page, 'trustDistribution')).map((r) => [r[0], r[3]])).toEqual(report.trustDistribution.map((t) => [String(t.trustLevel), formatCount(t.count)]));

    expect((await chartMarks(page, 'grafik-kota')).map(([, v]) => v)).toEqual(report.byCity.slice(0, REPORT_CITY_BARS).map((c) => c.count));
    expect((await chartMarks(page, 'grafik-kota')).map(([l]) => l)).toEqual(report.byCity.slice(0, REPORT_CITY_BARS).map((c) => c.city));
    expect((await chartMarks(page, 'grafik-rating')).map(([, v]) => v)).toEqual(report.ratingDistribution.map((b) => b.count));
    expect((await chartMarks(page, 'grafik-kepercayaan')).map(([, v]) => v)).toEqual(report.trustDistribution.map((t) => t.count));

    for (const kind of ['hourlyRate', 'minProjectBudget'] as const) {
      const figure = report.commercial[kind];
      const box = page.locator(`[data-figure="${kind}"]`);
      expect(await box.locator('[data-key="providersWithDisplayableValue"]').innerText()).toBe(formatCount(figure.providersWithDisplayableValue));
      expect(await box.locator('[data-key="minIdr"]').innerText()).toBe(money(figure.minIdr));
      expect(await box.locator('[data-key="medianIdr"]').innerText()).toBe(money(figure.medianIdr));
      expect(await box.locator('[data-key="maxIdr"]').innerText()).toBe(money(figure.maxIdr));
      // A band only where displayable values exist, exactly the API's rule.
      expect(await box.locator('svg').count()).toBe(figure.providersWithDisplayableValue > 0 ? 1 : 0);
    }
    expect(report.commercial.minProjectBudget.providersWithDisplayableValue).toBeGreaterThan(0);
    await page.close();
  });

  it('draws bars to scale: each bar length over its count is the same for every bar', async () => {
    const { page } = await open(context, REPORT_PATH);
    for (const id of ['grafik-kota', 'grafik-kepercayaan', 'grafik-rating']) {
      const ratios = await page.$$eval(`svg#${id} [data-value]`, (gs, vertical) =>
        gs
          .map((g) => {
            const box = (g.querySelector('rect') as SVGRectElement).getBBox();
            return { value: Number(g.getAttribute('data-value')), length: vertical ? box.height : box.width };
          })
          .filter((b) => b.value > 0)
          .map((b) => b.length / b.value), id === 'grafik-rating');
      expect(ratios.length).toBeGreaterThan(1);
      expect(ratios[0]).toBeGreaterThan(0);
      for (const r of ratios) expect(r).toBeCloseTo(ratios[0]!, 1);
    }
    await page.close();
  });
});

describe('category page numbers', () => {
  it('draw the rated providers by rating and count the unrated ones beside the chart, as SQL counts them', async () => {
    const db = new Database(siteDb, { readonly: true, fileMustExist: true });
    const slug = report.category.slug;
    const sql = db.prepare(`SELECT count(*) FILTER (WHERE total_reviews > 0) AS rated, count(*) FILTER (WHERE total_reviews = 0) AS unrated
      FROM published_providers WHERE rowid IN (SELECT provider_rowid FROM provider_categories WHERE category_id IN
        (SELECT id FROM categories WHERE slug = :slug OR (active = 1 AND parent_id = (SELECT id FROM categories WHERE slug = :slug))))`);
    const { rated, unrated } = sql.get({ slug }) as { rated: number; unrated: number };
    db.close();
    expect(unrated).toBeGreaterThan(0);
    const { page } = await open(context, categoryPathOfReport);
    const box = page.locator('[data-figure="ratingDistribution"]');
    expect((await chartMarks(page, 'grafik-rating')).reduce((n, [, v]) => n + Number(v), 0)).toBe(rated);
    expect(await box.locator('figcaption [data-key="providersWithoutReviews"]').innerText()).toBe(
      `${formatCount(unrated)} penyedia belum memiliki ulasan; mereka tidak dihitung dalam sebaran maupun rata-rata rating.`,
    );
    // The chart's data table (closed by default) ends with the same count.
    expect(await box.locator('tfoot tr[data-key="providersWithoutReviews"] td').textContent()).toBe(formatCount(unrated));
    await page.close();
  });
});

interface Paint {
  area: number;
  painted: number;
  fillColored: number;
  dark: number;
}

/** Pixels of an element's screenshot: painted (not white), of the chart's fill colour, and dark (text). */
async function paintOf(svg: Locator, fill: string): Promise<Paint> {
  const png = PNG.sync.read(await svg.screenshot());
  const [fr, fg, fb] = [1, 3, 5].map((i) => Number.parseInt(fill.slice(i, i + 2), 16));
  const paint: Paint = { area: png.width * png.height, painted: 0, fillColored: 0, dark: 0 };
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r < 245 || g < 245 || b < 245) paint.painted++;
    if (Math.abs(r - fr!) + Math.abs(g - fg!) + Math.abs(b - fb!) < 24) paint.fillColored++;
    if (r + g + b < 200) paint.dark++;
  }
  return paint;
}

describe('charts in Chromium', () => {
  for (const [label, pathname] of [['report', REPORT_PATH], ['category', '']] as const) {
    it(`paints every chart of the ${label} page: marks in their colour and labels`, async () => {
      const { page, errors } = await open(context, pathname || categoryPathOfReport);
      const charts = page.locator('svg.chart-svg');
      const count = await charts.count();
      expect(count).toBe(label === 'report' ? 3 + (await page.locator('[data-chart="range"]').count()) : 3);
      for (let i = 0; i < count; i++) {
        const svg = charts.nth(i);
        const fill = await svg.locator('rect').first().getAttribute('fill');
        expect(fill).toMatch(/^#[0-9a-f]{6}$/);
        const box = await svg.boundingBox();
        expect(box!.width).toBeGreaterThan(200);
        expect(box!.height).toBeGreaterThan(60);
        const paint = await paintOf(svg, fill!);
        const name = await svg.getAttribute('id');
        // Marks cover a real share of the chart (a money band is one bar, so less);
        // text (labels, counts) is there too.
        const range = (await svg.getAttribute('data-chart')) === 'range';
        expect(paint.fillColored / paint.area, `${name}: fill-coloured share`).toBeGreaterThan(range ? 0.01 : 0.03);
        expect(paint.painted / paint.area, `${name}: painted share`).toBeGreaterThan(range ? 0.03 : 0.06);
        expect(paint.dark, `${name}: text pixels`).toBeGreaterThan(300);
        await svg.screenshot({ path: path.join(ARTIFACTS, `${label}-${name}.png`) });
      }
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

describe('report page in the browser', () => {
  it('has no axe violations at all, on the report page and a category page with charts', async () => {
    for (const pathname of [REPORT_PATH, categoryPathOfReport]) {
      const { page, errors } = await open(context, pathname);
      const violations = await axeViolations(page, AXE_SOURCE);
      expect(violations, pathname).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('shows charts and tables with JavaScript disabled, and fits a phone', async () => {
    for (const [label, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 900 }]] as const) {
      const ctx = await browser.newContext({ viewport, javaScriptEnabled: false, deviceScaleFactor: 1 });
      const { page } = await open(ctx, REPORT_PATH);
      expect(await page.locator('h1').isVisible()).toBe(true);
      const charts = page.locator('svg.chart-svg');
      expect(await charts.count()).toBeGreaterThanOrEqual(3);
      for (const svg of await charts.all()) expect((await svg.boundingBox())!.width).toBeGreaterThan(label === 'phone' ? 300 : 400);
      expect(await page.locator('table[data-figure="byCity"] tbody tr').count()).toBe(report.byCity.length);
      expect(await page.locator('#metode').isVisible()).toBe(true);
      // Nothing makes the page scroll sideways; a failure names what sticks out.
      const { overflow, culprits } = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        culprits: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => `${e.tagName}.${e.className}`),
      }));
      expect(overflow, `${label}: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
      const file = path.join(ARTIFACTS, `report-${label}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(20_000);
      await ctx.close();
    }
  });

  it('is reached from the home page and from its category page', async () => {
    for (const from of ['/', categoryPathOfReport]) {
      const { page } = await open(context, from);
      const link = page.locator(`main a[href="${REPORT_PATH}"]`).first();
      await Promise.all([page.waitForURL(new RegExp(`${REPORT_PATH}$`)), link.click()]);
      expect(await page.locator('h1').innerText()).toBe(report.title);
      await page.close();
    }
  });
});
