/**
 * The four page types (home, provider, landing, search) in a real browser:
 * no console errors, no serious or critical axe-core violations, content visible
 * with JavaScript disabled, the search form returns results, landing links reach
 * provider pages, and provider screenshots at phone and desktop widths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite, ROOT } from '../site/fixture/built-site.ts';
import { HOSTILE_SLUG } from '../site/fixture/hostile.ts';
import { startServer, type RunningServer } from '../site/fixture/serve.ts';
import { axeViolations, launchChromium, openPage } from './chromium.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ARTIFACTS = path.join(ROOT, 'tests/artifacts');

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let noJs: BrowserContext;
const pages: Record<'home' | 'provider' | 'landing' | 'search', string> = { home: '/', provider: '', landing: '', search: '/search?q=website' };

beforeAll(async () => {
  const site = await builtSite();
  const providerFiles = fs.readdirSync(path.join(site.clientDir, 'provider')).filter((f) => f.endsWith('.html') && !f.startsWith(HOSTILE_SLUG));
  pages.provider = `/provider/${providerFiles[0]!.slice(0, -5)}`;
  pages.landing = `/${fs.readdirSync(site.clientDir).find((f) => f.includes('-terbaik-'))!.slice(0, -5)}`;
  [server, browser] = await Promise.all([startServer(site), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  noJs = await browser.newContext({ javaScriptEnabled: false });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = (ctx: BrowserContext, pathname: string) => openPage(ctx, server.origin + pathname);

describe.each(Object.keys(pages) as (keyof typeof pages)[])('%s page', (kind) => {
  it('renders with no console errors and no serious or critical axe violations', async () => {
    const { page, errors, status } = await open(context, pages[kind]);
    expect(status).toBe(200);
    expect(await page.locator('h1').first().innerText()).not.toBe('');
    const violations = await axeViolations(page, AXE_SOURCE);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows its content with JavaScript disabled', async () => {
    const { page, status } = await open(noJs, pages[kind]);
    expect(status).toBe(200);
    await expect.poll(() => page.locator('h1').first().isVisible()).toBe(true);
    const main = await page.locator('main').innerText();
    expect(main.length).toBeGreaterThan(100);
    if (kind !== 'home') expect(await page.locator('main a[href^="/provider/"]').count()).toBeGreaterThan(0);
    await page.close();
  });
});

describe('journeys', () => {
  it('the search form on the home page returns results', async () => {
    const { page, errors } = await open(context, '/');
    await page.locator('#q').fill('website toko online');
    await Promise.all([page.waitForURL(/\/search\?/), page.locator('form.search-form button[type=submit]').click()]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('website toko online');
    expect(await page.locator('ol.ranked > li').count()).toBeGreaterThan(0);
    expect(await page.locator('#hasil').innerText()).toMatch(/penyedia ditemukan/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('links on a landing page reach provider pages', async () => {
    const { page } = await open(context, pages.landing);
    const first = page.locator('ol.ranked .provider-card-title a').first();
    const name = await first.innerText();
    await Promise.all([page.waitForURL(/\/provider\/[a-z0-9-]+$/), first.click()]);
    expect(await page.locator('h1').innerText()).toBe(name);
    await page.close();
  });

  it('keeps screenshots of a provider page at phone and desktop widths', async () => {
    for (const [label, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 900 }]] as const) {
      const ctx = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      const { page } = await open(ctx, pages.provider);
      const file = path.join(ARTIFACTS, `provider-${label}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(5_000);
      // Nothing overflows the viewport sideways (right on a phone).
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await ctx.close();
    }
  });
});
