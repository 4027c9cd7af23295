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

/**
 * Reports every Content-Security-Policy violation of a document as a console error
 * (the browser's own CSP messages do not reach the console API). Init scripts run
 * before the page's own and are not subject to its CSP.
 */
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber);
});`;

/**
 * Opens a page and records console errors, uncaught exceptions, CSP violations and
 * the browser's own error messages (its log: a refused resource, a header it could
 * not parse), each with its source.
 */
export async function openPage(ctx: BrowserContext, url: string): Promise<{ page: Page; errors: string[]; status: number }> {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript({ content: REPORT_CSP_VIOLATIONS });
  const devtools = await ctx.newCDPSession(page);
  devtools.on('Log.entryAdded', ({ entry }) => {
    if (entry.level === 'error') errors.push(`browser ${entry.source}: ${entry.text}${entry.url ? ` (${entry.url})` : ''}`);
  });
  await devtools.send('Log.enable');
  const res = await page.goto(url, { waitUntil: 'load' });
  return { page, errors, status: res?.status() ?? 0 };
}

/**
 * Runs axe-core in the page and returns its violations. Evaluated through the
 * DevTools protocol: a `<script>` tag added to the page would be inline script,
 * which the pages' CSP refuses.
 */
export async function axeViolations(page: Page, source: string): Promise<{ id: string; impact: string; nodes: number }[]> {
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
}
