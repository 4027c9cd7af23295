/**
 * Helpers for snapshot tests: a writable copy of the hand-made fixture dataset
 * (tests/fixtures/dataset-mini) that a test can break one record at a time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MINI_DATASET = path.resolve(import.meta.dirname, '../fixtures/dataset-mini');

export function tempDir(prefix = 'snapshot-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A copy of the mini dataset in a fresh temp directory. */
export function copyMiniDataset(): string {
  const dir = tempDir('dataset-');
  for (const name of fs.readdirSync(MINI_DATASET)) fs.copyFileSync(path.join(MINI_DATASET, name), path.join(dir, name));
  return dir;
}

export type JsonRecord = Record<string, unknown>;

export function readNdjson(dir: string, name: string): JsonRecord[] {
  return fs
    .readFileSync(path.join(dir, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JsonRecord);
}

export function writeNdjson(dir: string, name: string, records: Array<JsonRecord | string>): void {
  const lines = records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
  fs.writeFileSync(path.join(dir, name), `${lines.join('\n')}\n`);
}

export function readJson(dir: string, name: string): JsonRecord[] {
  return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as JsonRecord[];
}

export function writeJson(dir: string, name: string, records: unknown): void {
  fs.writeFileSync(path.join(dir, name), JSON.stringify(records, null, 2));
}

/** Applies `change` to the record at `index` (0-based) of an .ndjson file. */
export function editNdjson(dir: string, name: string, index: number, change: (r: JsonRecord) => JsonRecord | string): void {
  const records: Array<JsonRecord | string> = readNdjson(dir, name);
  records[index] = change(records[index] as JsonRecord);
  writeNdjson(dir, name, records);
}

/**
 * Lets `change` edit, add or drop records of an .ndjson file and writes it back with the
 * lines of records it left alone byte for byte as they were, as an editor's edit leaves
 * them (the incremental scan compares raw lines).
 */
export function rewriteNdjson(dir: string, name: string, change: (records: JsonRecord[]) => void): void {
  const file = path.join(dir, name);
  const rawOf = new Map<string, string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() !== '') rawOf.set(JSON.stringify(JSON.parse(line)), line);
  }
  const records = readNdjson(dir, name);
  change(records);
  writeNdjson(dir, name, records.map((r) => rawOf.get(JSON.stringify(r)) ?? r));
}
