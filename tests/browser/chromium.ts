/**
 * Debian's chromium driven by playwright-core (no browser download). A missing
 * chromium fails the test with a clear message; it is never a skip.
 * playwright launches every browser with a fresh temporary --user-data-dir.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Debian chromium is missing at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (.ci/run does).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Opens a page and records console errors and uncaught exceptions. */
export async function openPage(ctx: BrowserContext, url: string): Promise<{ page: Page; errors: string[]; status: number }> {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const res = await page.goto(url, { waitUntil: 'load' });
  return { page, errors, status: res?.status() ?? 0 };
}
