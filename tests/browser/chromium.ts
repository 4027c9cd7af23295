/**
 * Debian's chromium driven by playwright-core (no browser download). A missing
 * chromium fails the test with a clear message; it is never a skip.
 * playwright launches every browser with a fresh temporary --user-data-dir.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
