/**
 * The start rules (README, "Commands"): the default snapshot is rebuilt when
 * the seed changes; an explicit DIRECTORY_DB is used as it is (byte-identical after
 * `npm start`); a missing one is a clear error with a non-zero exit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { ensureSnapshot } from '../../src/cli/prepare.ts';
import { loadEnv } from '../../src/env.ts';

let dir: string;
let seed: string;

beforeAll(async () => {
  fs.mkdirSync('.tmp', { recursive: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-start-'));
  seed = path.join(dir, 'seed');
  await generateDataset({ providers: 30, seed: 11, outDir: seed });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('default snapshot path', () => {
  it('builds when missing, keeps a current snapshot, rebuilds when the seed changes', async () => {
    const env = { ...loadEnv({}, dir), directoryDb: path.join(dir, 'directory.db') };
    const quiet = () => {};
    expect(await ensureSnapshot(env, quiet, seed)).toBe(true);
    const firstBytes = fs.readFileSync(env.directoryDb);
    expect(await ensureSnapshot(env, quiet, seed)).toBe(false);
    expect(fs.readFileSync(env.directoryDb).equals(firstBytes)).toBe(true);

    const reports = path.join(seed, 'reports.json');
    const list = JSON.parse(fs.readFileSync(reports, 'utf8')) as { summary: string }[];
    list[0]!.summary += ' Edited by an editor.';
    fs.writeFileSync(reports, JSON.stringify(list, null, 2));
    expect(await ensureSnapshot(env, quiet, seed)).toBe(true);
    expect(fs.readFileSync(env.directoryDb).equals(firstBytes)).toBe(false);
  });
});

describe('npm start with DIRECTORY_DB', () => {
  it('fails clearly when the file is missing', () => {
    const missing = path.join(dir, 'nope.db');
    const run = spawnSync(process.execPath, ['scripts/start.ts'], {
      env: { ...process.env, DIRECTORY_DB: missing, PORT: '0', CI: 'true' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`DIRECTORY_DB=${missing} does not exist`);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('serves an explicit snapshot and leaves it byte-identical', async () => {
    const db = path.join(dir, 'explicit.db');
    await buildSnapshot({ inputDir: seed, outFile: db });
    const before = fs.readFileSync(db);
    // Inside the repo: the server bundle resolves its packages from node_modules.
    const outDir = fs.mkdtempSync(path.resolve('.tmp', 'start-dist-'));
    const child = spawn(process.execPath, ['scripts/start.ts'], {
      env: { ...process.env, DIRECTORY_DB: db, ASTRO_OUT_DIR: outDir, PORT: '0', HOST: '127.0.0.1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${out}`)), 240_000);
      const onData = (b: Buffer) => {
        out += b.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm start exited ${code}:\n${out}`)));
    });
    try {
      const home = await fetch(url + '/');
      expect(home.status).toBe(200);
      const cats = await fetch(url + '/api/v1/categories');
      expect(cats.status).toBe(200);
      expect(fs.existsSync(path.join(outDir, 'client', 'index.html'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(outDir, { recursive: true, force: true });
    expect(fs.readFileSync(db).equals(before)).toBe(true);
  }, 300_000);
});
