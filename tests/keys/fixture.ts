/**
 * Shared by the key, rate-limit, recommend and MCP tests: a real snapshot built
 * by the real builder from a generated dataset, a real redis-server, and the real
 * server (scripts/serve.ts) started with the settings a test needs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServe } from '../support/serve.ts';
import { sharedBuild } from '../support/shared-build.ts';
import type { Service as Child } from '../support/binaries.ts';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';

export interface Snapshotted {
  dir: string;
  dbFile: string;
}

/**
 * 250 generated providers, seed 4: enough cities and categories for the parser. Built
 * once per vitest run and size (tests/support/shared-build.ts); each caller gets its
 * own copy of the snapshot in a folder it removes.
 */
export async function buildTestSnapshot(providers = 250, seed = 4): Promise<Snapshotted> {
  const shared = await sharedBuild(`keys-fixture-n${providers}-s${seed}`, async (into) => {
    const dataDir = path.join(into, 'data');
    await generateDataset({ providers, seed, outDir: dataDir });
    await buildSnapshot({ inputDir: dataDir, outFile: path.join(into, 'directory.db') });
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-keys-'));
  const dbFile = path.join(dir, 'directory.db');
  fs.copyFileSync(path.join(shared, 'directory.db'), dbFile);
  return { dir, dbFile };
}

import { freePort } from '../support/ports.ts';
export { freePort };

export { startRedis } from '../support/binaries.ts';
export type { Service as Child } from '../support/binaries.ts';

/** scripts/serve.ts on a free port with the given settings (no Astro pages: the API only). */
export async function startServer(env: Record<string, string>): Promise<Child> {
  const { url, stop } = await startServe(env);
  return { url, stop };
}
