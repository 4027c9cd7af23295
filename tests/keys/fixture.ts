/**
 * Shared by the key, rate-limit, recommend and MCP tests: a real snapshot built
 * by the real builder from a generated dataset, a real redis-server, and the real
 * server (scripts/serve.ts) started with the settings a test needs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServe, stopChild } from '../support/serve.ts';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';

export interface Snapshotted {
  dir: string;
  dbFile: string;
}

/** 250 generated providers, seed 4: enough cities and categories for the parser, built in seconds. */
export async function buildTestSnapshot(providers = 250, seed = 4): Promise<Snapshotted> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-keys-'));
  const dataDir = path.join(dir, 'data');
  await generateDataset({ providers, seed, outDir: dataDir });
  const dbFile = path.join(dir, 'directory.db');
  await buildSnapshot({ inputDir: dataDir, outFile: dbFile });
  return { dir, dbFile };
}

import { freePort } from '../support/ports.ts';
export { freePort };

export interface Child {
  url: string;
  stop(): Promise<void>;
}

const stopper = (child: ChildProcess) => () => stopChild(child);

/** A real redis-server on a free port, no persistence. A missing binary fails the test loudly. */
export async function startRedis(): Promise<Child> {
  const which = spawnSync('sh', ['-c', 'command -v redis-server']);
  if (which.status !== 0) {
    throw new Error('redis-server is not installed: these tests need it (Debian: apt-get install -y redis-server)');
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: stopper(child) };
}

/** scripts/serve.ts on a free port with the given settings (no Astro pages: the API only). */
export async function startServer(env: Record<string, string>): Promise<Child> {
  const { url, stop } = await startServe(env);
  return { url, stop };
}
