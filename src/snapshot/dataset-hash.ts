/**
 * The dataset's identity: sha256 over the dataset files (name and bytes, in a
 * fixed order), streamed. The snapshot records it (snapshot_meta.dataset_hash) so
 * `npm start` can tell whether data/directory.db was built from this seed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATASET_FILES } from '../schemas/dataset.ts';

export async function hashDataset(dir: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for (const name of Object.values(DATASET_FILES).sort()) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      hash.update(`${name}\0missing\0`);
      continue;
    }
    hash.update(`${name}\0`);
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    hash.update('\0');
  }
  return hash.digest('hex');
}
