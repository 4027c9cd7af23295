/**
 * Same seed, same bytes; another seed, another dataset; and the committed seed is
 * exactly what the generator writes for `--providers 500 --seed 42`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/generate/index.ts';
import { SEED_DIR } from './seed-data.ts';

const root = mkdtempSync(join(tmpdir(), 'generate-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FILES = ['categories.json', 'ground-truth.ndjson', 'proofs.ndjson', 'providers.ndjson', 'reports.json'];
const read = (dir: string) => Object.fromEntries(FILES.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('generateDataset', () => {
  it('writes the same bytes for the same seed and different providers for another seed', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(root, name)) as [string, string, string];
    await generateDataset({ providers: 60, seed: 7, outDir: a });
    await generateDataset({ providers: 60, seed: 7, outDir: b });
    await generateDataset({ providers: 60, seed: 8, outDir: c });
    expect(readdirSync(a).sort()).toEqual(FILES);
    expect(read(a)).toEqual(read(b));
    expect(read(c)['providers.ndjson']).not.toEqual(read(a)['providers.ndjson']);
    expect(read(a)['providers.ndjson']?.trim().split('\n')).toHaveLength(60);
  });

  it('reports progress and the counts it wrote', async () => {
    const seen: number[] = [];
    const summary = await generateDataset({ providers: 25, seed: 1, outDir: join(root, 'd'), progressEvery: 10, onProgress: (done) => seen.push(done) });
    expect(seen).toEqual([10, 20, 25]);
    expect(summary.providers).toBe(25);
    expect(readFileSync(join(root, 'd', 'proofs.ndjson'), 'utf8').trim().split('\n')).toHaveLength(summary.proofs);
  });

  it('rejects a negative or fractional provider count', async () => {
    await expect(generateDataset({ providers: -1, seed: 1, outDir: join(root, 'e') })).rejects.toThrow(/providers/);
    await expect(generateDataset({ providers: 1.5, seed: 1, outDir: join(root, 'e') })).rejects.toThrow(/providers/);
  });

  it('reproduces the committed seed (data/seed is --providers 500 --seed 42)', async () => {
    const out = join(root, 'seed');
    await generateDataset({ providers: 500, seed: 42, outDir: out });
    expect(read(out)).toEqual(read(SEED_DIR));
  });
});
