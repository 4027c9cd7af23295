/** Reads a dataset directory written by the generator (the seed or a temp fixture). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Dataset {
  categories: unknown[];
  providers: Array<Record<string, unknown>>;
  proofs: Array<Record<string, unknown>>;
  reports: unknown[];
  truth: Array<Record<string, unknown>>;
}

const ndjson = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

export function readDataset(dir: string): Dataset {
  return {
    categories: JSON.parse(readFileSync(join(dir, 'categories.json'), 'utf8')) as unknown[],
    providers: ndjson(join(dir, 'providers.ndjson')),
    proofs: ndjson(join(dir, 'proofs.ndjson')),
    reports: JSON.parse(readFileSync(join(dir, 'reports.json'), 'utf8')) as unknown[],
    truth: ndjson(join(dir, 'ground-truth.ndjson')),
  };
}

export const SEED_DIR = join(import.meta.dirname, '../../data/seed');
