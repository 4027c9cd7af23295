/**
 * The bundled dataset (data/seed) built by the real builder once per vitest run
 * (tests/support/shared-build.ts), for the tests that judge search on it or read
 * its schema; each caller gets its own copy in a folder it removes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { sharedBuild } from './shared-build.ts';

export async function seedSnapshotCopy(): Promise<{ dir: string; dbFile: string }> {
  const shared = await sharedBuild('seed-snapshot', (into) => buildSnapshot({ inputDir: 'data/seed', outFile: path.join(into, 'seed.db') }).then(() => {}));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-snapshot-'));
  const dbFile = path.join(dir, 'seed.db');
  fs.copyFileSync(path.join(shared, 'seed.db'), dbFile);
  return { dir, dbFile };
}
