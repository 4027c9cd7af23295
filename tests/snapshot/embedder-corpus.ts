/**
 * A real text corpus for the embedder tests: a dataset written by the generator,
 * read back, and turned into the texts the snapshot builder embeds.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDataset, GROUND_TRUTH_FILE, type GroundTruth } from '../../src/generate/index.ts';
import type { CategoryRecord, ProviderRecord } from '../../src/schemas/dataset.ts';
import { providerEmbeddingText } from '../../src/snapshot/embedder-text.ts';

export interface CorpusDoc {
  record: ProviderRecord;
  truth: GroundTruth;
  text: string;
}

const readNdjson = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export async function generatedCorpus(providers: number, seed: number): Promise<CorpusDoc[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'embedder-corpus-'));
  await generateDataset({ providers, seed, outDir });
  const categories = JSON.parse(await readFile(join(outDir, 'categories.json'), 'utf8')) as CategoryRecord[];
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const records = await readNdjson<ProviderRecord>(join(outDir, 'providers.ndjson'));
  const truths = new Map((await readNdjson<GroundTruth>(join(outDir, GROUND_TRUTH_FILE))).map((t) => [t.id, t]));
  return records.map((record) => ({
    record,
    truth: truths.get(record.id)!,
    text: providerEmbeddingText({
      ...record,
      categoryNames: record.categoryIds.map((id) => categoryName.get(id) ?? ''),
    }),
  }));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot; // both L2-normalized
}
