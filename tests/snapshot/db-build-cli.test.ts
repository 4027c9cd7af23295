/**
 * `node scripts/db-build.ts` (what `npm run db:build` runs) as an editor runs it, and the all-or-nothing rule:
 * a failed build (bad data, or a failure late in the build) leaves the previous
 * snapshot byte-identical and no temporary file behind.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import type { Embedder } from '../../src/snapshot/embedder.ts';
import { failingEmbedder } from '../support/failing-embedder.ts';
import { SCHEMA_VERSION, verifySnapshotFile } from '../../src/snapshot/snapshot-file.ts';
import { copyMiniDataset, editNdjson, MINI_DATASET, tempDir } from './fixture.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let work: string;
let out: string;
let original: Buffer;

function dbBuild(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['scripts/db-build.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', EMBEDDER_URL: '', EMBEDDER_MODEL: '', ...env },
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

beforeAll(async () => {
  work = tempDir();
  out = path.join(work, 'directory.db');
  await buildSnapshot({ inputDir: MINI_DATASET, outFile: out, embedder: null });
  original = fs.readFileSync(out);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('db:build CLI', () => {
  it('exits 1 on invalid records, names file, line and field, and leaves the previous snapshot untouched', () => {
    const bad = copyMiniDataset();
    editNdjson(bad, 'providers.ndjson', 2, (r) => ({ ...r, trustLevel: 7 }));
    const run = dbBuild(['--input', bad, '--out', out]);
    fs.rmSync(bad, { recursive: true, force: true });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('providers.ndjson:3: field "trustLevel": must be an integer between 0 and 5 (got 7)');
    expect(run.stderr).toContain('unchanged');
    expect(fs.readFileSync(out).equals(original)).toBe(true);
    expect(fs.readdirSync(work)).toEqual(['directory.db']);
  });

  it('exits 1 with a clear message when the input directory is missing or --input is absent', () => {
    const missing = dbBuild(['--input', path.join(work, 'nope'), '--out', out]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('dataset directory not found');
    const noInput = dbBuild(['--out', out]);
    expect(noInput.status).toBe(1);
    expect(noInput.stderr).toContain('--input DIR is required');
    expect(fs.readFileSync(out).equals(original)).toBe(true);
  });

  it('with --skip-invalid builds without the bad record, lists it, and writes to DIRECTORY_DB by default', () => {
    const bad = copyMiniDataset();
    editNdjson(bad, 'providers.ndjson', 0, () => '{not json');
    const target = path.join(work, 'skip.db');
    const run = dbBuild(['--input', bad, '--skip-invalid'], { DIRECTORY_DB: target });
    fs.rmSync(bad, { recursive: true, force: true });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/providers\.ndjson:1: invalid JSON/);
    expect(run.stderr).toContain('7 providers');
    expect(run.stderr).not.toContain('\x1b['); // no progress line under CI
    const db = new Database(target, { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM providers WHERE slug = 'kopi-digital'").get()).toEqual({ n: 0 });
      // its proofs went with it
      expect(db.prepare("SELECT count(*) AS n FROM proofs WHERE id IN ('prf-1', 'prf-2')").get()).toEqual({ n: 0 });
    } finally {
      db.close();
      fs.rmSync(target);
    }
  });
});

describe('a failure late in the build', () => {
  it('removes the temporary file and keeps the previous snapshot byte-identical', async () => {
    const failing = failingEmbedder();
    await expect(buildSnapshot({ inputDir: MINI_DATASET, outFile: out, embedder: failing })).rejects.toThrow('embedding service went away');
    expect(fs.readFileSync(out).equals(original)).toBe(true);
    expect(fs.readdirSync(work)).toEqual(['directory.db']);
  });

  it('uses an external embedder when given one and records its name and dims', async () => {
    const file = path.join(work, 'external.db');
    const external: Embedder = {
      name: 'test:constant',
      dims: 4,
      embedDocuments: async (texts) => texts.map(() => Float32Array.from([1, 0, 0, 0])),
      embedQuery: async () => Float32Array.from([1, 0, 0, 0]),
    };
    const result = await buildSnapshot({ inputDir: MINI_DATASET, outFile: file, embedder: external });
    expect(result.embedder).toEqual({ name: 'test:constant', dims: 4 });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM snapshot_meta WHERE key IN ('embedder_name', 'embedder_dims') ORDER BY key").all()).toEqual([
        { value: '4' },
        { value: 'test:constant' },
      ]);
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'embedder_model'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
      fs.rmSync(file);
    }
  });
});

describe('verifySnapshotFile', () => {
  it('refuses a truncated file, a wrong schema version and a file that is not a snapshot', () => {
    const truncated = path.join(work, 'truncated.db');
    fs.writeFileSync(truncated, original.subarray(0, Math.floor(original.length / 2)));
    expect(verifySnapshotFile(truncated).ok).toBe(false);

    const older = path.join(work, 'older.db');
    fs.writeFileSync(older, original);
    const db = new Database(older);
    db.prepare("UPDATE snapshot_meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    expect(verifySnapshotFile(older)).toEqual({
      ok: false,
      reason: `snapshot schema version 0, this program reads version ${SCHEMA_VERSION}: rebuild it with npm run db:build`,
    });

    // search reads these two tables only: a file without one is not a snapshot of this version
    const noPostings = path.join(work, 'no-postings.db');
    fs.writeFileSync(noPostings, original);
    const edit = new Database(noPostings);
    edit.exec('DROP TABLE search_postings');
    edit.close();
    expect(verifySnapshotFile(noPostings).ok).toBe(false);

    const empty = path.join(work, 'empty.db');
    new Database(empty).close();
    const verdict = verifySnapshotFile(empty);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok === false && verdict.reason).toContain('missing snapshot_meta');

    expect(verifySnapshotFile(path.join(work, 'absent.db')).ok).toBe(false);
    for (const f of [truncated, older, empty]) fs.rmSync(f);
  });
});
