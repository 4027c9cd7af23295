/**
 * The deterministic dataset generator (docs/interface.md, Dataset format): categories.json,
 * providers.ndjson, proofs.ndjson, reports.json, plus ground-truth.ndjson for the
 * search evaluation (db:build ignores it). Same options, same bytes.
 *
 *   await generateDataset({ providers: 60, seed: 7, outDir })   // a test fixture
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATASET_FILES, type ReportRecord } from '../schemas/dataset.ts';
import { NdjsonWriter } from './ndjson-writer.ts';
import { generateProvider } from './provider.ts';
import { SlugRegistry } from './slugs.ts';
import { CATEGORIES } from './taxonomy.ts';

export { CONCEPTS, CONCEPT_BY_CATEGORY, type Concept } from './concepts.ts';
export { CATEGORIES } from './taxonomy.ts';
export { PLACES } from './places.ts';
export type { GroundTruth } from './provider.ts';

export const GROUND_TRUTH_FILE = 'ground-truth.ndjson';

export interface GenerateOptions {
  providers: number;
  seed: number;
  outDir: string;
  /** called every `progressEvery` providers and at the end */
  onProgress?: (done: number, total: number) => void;
  progressEvery?: number;
}

export interface GenerateSummary {
  providers: number;
  proofs: number;
  categories: number;
  outDir: string;
}

export const REPORTS: readonly ReportRecord[] = [
  {
    slug: 'web-development-indonesia-2026',
    title: 'Web Development di Indonesia 2026',
    categorySlug: 'web-development',
    country: 'ID',
    year: 2026,
    summary:
      'Peta penyedia jasa web development di Indonesia pada 2026: sebaran kota, rating dan tingkat kepercayaan, serta kisaran anggaran proyek dalam Rupiah dari profil yang terverifikasi.',
  },
];

export async function generateDataset(options: GenerateOptions): Promise<GenerateSummary> {
  const { providers: total, seed, outDir } = options;
  if (!Number.isInteger(total) || total < 0) throw new Error(`providers must be a non-negative integer, got ${total}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, DATASET_FILES.categories), `${JSON.stringify(CATEGORIES, null, 2)}\n`);
  await writeFile(join(outDir, DATASET_FILES.reports), `${JSON.stringify(REPORTS, null, 2)}\n`);

  const providerOut = new NdjsonWriter(join(outDir, DATASET_FILES.providers));
  const proofOut = new NdjsonWriter(join(outDir, DATASET_FILES.proofs));
  const truthOut = new NdjsonWriter(join(outDir, GROUND_TRUTH_FILE));
  const slugs = new SlugRegistry();
  const every = options.progressEvery ?? 10_000;
  let proofCount = 0;
  try {
    for (let index = 0; index < total; index++) {
      const { record, proofs, truth } = generateProvider(seed, index, total, slugs);
      await providerOut.write(record);
      for (const proof of proofs) await proofOut.write(proof);
      await truthOut.write(truth);
      proofCount += proofs.length;
      if (options.onProgress && (index + 1) % every === 0) options.onProgress(index + 1, total);
    }
  } finally {
    await Promise.all([providerOut.close(), proofOut.close(), truthOut.close()]);
  }
  options.onProgress?.(total, total);
  return { providers: total, proofs: proofCount, categories: CATEGORIES.length, outDir };
}
