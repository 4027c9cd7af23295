/**
 * The start rules (README, "Commands"), shared by `npm start` and `npm run build`:
 * - default path: (re)build data/directory.db from data/seed/ when it is missing, was
 *   built from another version of the seed (dataset hash differs) or by a builder of
 *   another schema version (which the server would refuse);
 * - DIRECTORY_DB set: use the file as it is, never overwrite it; missing = error;
 * - pre-render the site when dist/ is missing or older than the snapshot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import type { Env } from '../env.ts';
import { hashDataset } from '../snapshot/dataset-hash.ts';
import { SCHEMA_VERSION } from '../snapshot/schema-version.ts';

export const SEED_DIR = 'data/seed';

export class PrepareError extends Error {}

/** The dataset hash of a snapshot this program reads, or undefined (another schema version, or no snapshot). */
function builtFromHash(file: string): string | undefined {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const meta = new Map(db.prepare('SELECT key, value FROM snapshot_meta').all().map((r) => {
        const { key, value } = r as { key: string; value: string };
        return [key, value];
      }));
      return meta.get('schema_version') === SCHEMA_VERSION ? meta.get('dataset_hash') : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined; // unreadable or not a snapshot: rebuild
  }
}

/** Makes sure the snapshot exists (and is current for the default path). Returns true if it was built. */
export async function ensureSnapshot(env: Env, log: (msg: string) => void, seedDir = SEED_DIR): Promise<boolean> {
  if (env.directoryDbExplicit) {
    if (!fs.existsSync(env.directoryDb)) {
      throw new PrepareError(
        `DIRECTORY_DB=${env.directoryDb} does not exist. Build it with \`npm run db:build -- --input DIR --out ${env.directoryDb}\`, or unset DIRECTORY_DB to use the bundled seed.`,
      );
    }
    return false;
  }
  const seedHash = await hashDataset(seedDir);
  if (fs.existsSync(env.directoryDb) && builtFromHash(env.directoryDb) === seedHash) return false;
  log(`building ${path.relative(process.cwd(), env.directoryDb)} from ${seedDir}/ ...`);
  const { buildSnapshot } = await import('../snapshot/build.ts');
  const { openBuildEmbedder } = await import('../snapshot/embedder-config.ts');
  await buildSnapshot({ inputDir: path.resolve(seedDir), outFile: env.directoryDb, embedder: await openBuildEmbedder(env.embedder) });
  return true;
}

/** The client output's build stamp: written by the site build, read here. */
const stampFile = (distDir: string) => path.join(distDir, 'client', 'index.html');

export function siteIsStale(distDir: string, snapshotFile: string): boolean {
  try {
    return fs.statSync(stampFile(distDir)).mtimeMs < fs.statSync(snapshotFile).mtimeMs || !fs.existsSync(path.join(distDir, 'server', 'entry.mjs'));
  } catch {
    return true;
  }
}

/** Runs `astro build` against the snapshot; the child inherits `baseEnv`, the entry point's environment. */
export function buildSite(env: Env, baseEnv: NodeJS.ProcessEnv, log: (msg: string) => void): void {
  log('pre-rendering the site (astro build) ...');
  const result = spawnSync(process.execPath, [path.resolve('node_modules/astro/bin/astro.mjs'), 'build'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...baseEnv, DIRECTORY_DB: env.directoryDb, ASTRO_OUT_DIR: env.distDir, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new PrepareError(`astro build failed (exit ${result.status ?? result.signal})`);
}
