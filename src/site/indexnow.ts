/**
 * The IndexNow key (docs/settings.md): INDEXNOW_KEY when set, otherwise a key
 * generated once into data/indexnow.key and reused, so the key file URL named in
 * llms.txt stays stable across rebuilds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export const INDEXNOW_KEY_FILE = 'data/indexnow.key';
const KEY_SHAPE = /^[a-zA-Z0-9-]{8,128}$/;

export function resolveIndexNowKey(fromEnv: string | undefined, cwd = process.cwd()): string {
  if (fromEnv) return fromEnv;
  const file = path.resolve(cwd, INDEXNOW_KEY_FILE);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (KEY_SHAPE.test(stored)) return stored;
  } catch {
    // not generated yet
  }
  const key = randomBytes(16).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx' fails if another build wrote it meanwhile: then read that one.
  try {
    fs.writeFileSync(file, `${key}\n`, { flag: 'wx' });
    return key;
  } catch {
    return fs.readFileSync(file, 'utf8').trim();
  }
}

export const indexNowKeyPath = (key: string) => `/${key}.txt`;
