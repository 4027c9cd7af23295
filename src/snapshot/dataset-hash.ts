/**
 * The dataset's identity: a sha256 over each dataset file's name and digest (or
 * "missing"), in a fixed order. The snapshot records it (snapshot_meta.dataset_hash) so
 * `npm start` can tell whether data/directory.db was built from this seed. A JSON file's
 * digest is the sha256 of its bytes; an .ndjson file's, a sha256 over the group hashes
 * of its line table (line-table.ts: the groups' bytes make up the file), so that a build
 * takes it from the hashes it computes anyway as it reads the file once.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATASET_FILES } from '../schemas/dataset.ts';
import { LineReader } from './dataset-lines.ts';
import { lineHash, LineTableBuilder, type LineTable } from './line-table.ts';

/** `digests`: each dataset file's digest, null for a file that is not there. */
export function datasetHashOf(digests: ReadonlyMap<string, string | null>): string {
  const hash = crypto.createHash('sha256');
  for (const name of Object.values(DATASET_FILES).sort()) {
    const digest = digests.get(name);
    if (digest === undefined) throw new Error(`no digest of ${name}`);
    hash.update(`${name}\0${digest ?? 'missing'}\0`);
  }
  return hash.digest('hex');
}

/** The digest of an .ndjson file from its line table. */
export function tableDigest(table: LineTable): string {
  const words = Buffer.alloc(4 * table.groupHashes.length);
  table.groupHashes.forEach((w, i) => words.writeUInt32LE(w, 4 * i));
  return crypto.hash('sha256', words, 'hex');
}

/** The digest of a JSON file: the sha256 of its bytes. */
export const bytesDigest = (bytes: Buffer): string => crypto.hash('sha256', bytes, 'hex');

/** Reads a dataset whole for its hash (the seed, at `npm start`); a build takes it from its own reads. */
export async function hashDataset(dir: string): Promise<string> {
  const digests = new Map<string, string | null>();
  for (const name of Object.values(DATASET_FILES)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) digests.set(name, null);
    else if (!name.endsWith('.ndjson')) digests.set(name, bytesDigest(await fs.promises.readFile(file)));
    else {
      const reader = new LineReader(file);
      const table = new LineTableBuilder();
      try {
        for (let l = reader.next(); l; l = reader.next()) table.line(lineHash(l.bytes), l.raw, 0);
      } finally {
        reader.close();
      }
      digests.set(name, tableDigest(table.finish()));
    }
  }
  return datasetHashOf(digests);
}
