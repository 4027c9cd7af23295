/**
 * The MDN HTTP Observatory scanner (npm @mdn/mdn-http-observatory, the code of the
 * public service), installed once per machine outside the repo from the pinned
 * tree in tests/security/observatory/ (package.json and its package-lock.json).
 *
 * Why not a devDependency: `npm ci` runs its postinstall, which downloads the HSTS
 * preload and TLD lists from the internet (npm 11 still runs install scripts by
 * default; `allowScripts` is advisory), and it would put ~230 packages (a
 * PostgreSQL client, fastify, jsdom) into the project's lockfile for one test. Here
 * it is installed with `--ignore-scripts` and given an empty preload list: no
 * host of this test is on it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const PINNED = path.resolve(import.meta.dirname, '../observatory');

/** Path of the scanner's CLI (src/scan.js: bin/wrapper.js would overwrite NODE_EXTRA_CA_CERTS). */
export function observatoryScanner(): string {
  const lock = fs.readFileSync(path.join(PINNED, 'package-lock.json'));
  const id = crypto.createHash('sha256').update(fs.readFileSync(path.join(PINNED, 'package.json'))).update(lock).digest('hex').slice(0, 12);
  const home = path.join(os.homedir(), '.cache', 'provider-directory', `mdn-http-observatory-${id}`);
  const scanner = path.join(home, 'node_modules/@mdn/mdn-http-observatory/src/scan.js');
  if (fs.existsSync(scanner)) return scanner;
  // Installed beside its final place, then renamed into it: a half-done install is never used.
  const staging = fs.mkdtempSync(`${home}.installing-`);
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(PINNED, file), path.join(staging, file));
  const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staging, encoding: 'utf8' });
  if (npm.status !== 0) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error(`installing the Observatory scanner from the npm registry failed (npm ci in ${staging}):\n${npm.stderr}`);
  }
  fs.writeFileSync(path.join(staging, 'node_modules/@mdn/mdn-http-observatory/conf/hsts-preload.json'), '{}\n');
  try {
    fs.renameSync(staging, home);
  } catch (err) {
    // Another run installed it meanwhile.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(scanner)) throw err;
  }
  return scanner;
}

export interface ObservatoryTest {
  pass: boolean;
  result: string;
  scoreModifier: number;
}

export interface ObservatoryScan {
  scan: { grade: string; score: number; testsPassed: number; testsQuantity: number; responseHeaders: Record<string, string> };
  tests: Record<string, ObservatoryTest>;
}
