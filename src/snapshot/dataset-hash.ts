/**
 * The dataset's identity: a sha256 over each dataset file's name and sha256 (or
 * "missing"), in a fixed order. The snapshot records it (snapshot_meta.dataset_hash) so
 * `npm start` can tell whether data/directory.db was built from this seed. Built from
 * the files' own digests so that the incremental scan (incremental-scan.ts) takes it
 * from the bytes it reads anyway (dataset-lines.ts), file by file, in its own order.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DATASET_FILES } from '../schemas/dataset.ts';

/** `digests`: the sha256 (hex) of each dataset file, null for a file that is not there. */
export function datasetHashOf(digests: ReadonlyMap<string, string | null>): string {
  const hash = crypto.createHash('sha256');
  for (const name of Object.values(DATASET_FILES).sort()) {
    const digest = digests.get(name);
    if (digest === undefined) throw new Error(`no digest of ${name}`);
    hash.update(`${name}\0${digest ?? 'missing'}\0`);
  }
  return hash.digest('hex');
}

/** The sha256 (hex) of a file's bytes, streamed; null when there is no such file. */
export async function fileDigest(file: string): Promise<string | null> {
  if (!fs.existsSync(file)) return null;
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function hashDataset(dir: string): Promise<string> {
  const digests = new Map<string, string | null>();
  for (const name of Object.values(DATASET_FILES)) digests.set(name, await fileDigest(path.join(dir, name)));
  return datasetHashOf(digests);
}
