/**
 * The build fingerprint: everything besides the snapshot that shapes the rendered
 * site (the site's code, config, dependencies and public URLs). An incremental
 * render copies pages from the previous release, which is only sound when that
 * release was rendered by the same code with the same settings.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { listFiles } from './tree.ts';

const INPUT_FOLDERS = ['src', 'public'];
// Code the static build never runs: editing it must not force a full render.
const NOT_RENDERED = /^src\/(?:ops|generate|keys)\//;
const INPUT_FILES = ['astro.config.mjs', 'package-lock.json', 'tsconfig.json', 'data/indexnow.key'];
const INPUT_SETTINGS = ['PUBLIC_WEB_URL', 'PUBLIC_API_URL', 'INDEXNOW_KEY', 'SITEMAP_MAX_URLS'];

export function buildFingerprint(root = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const hash = crypto.createHash('sha256');
  for (const folder of INPUT_FOLDERS) {
    for (const rel of listFiles(path.join(root, folder))) {
      if (NOT_RENDERED.test(`${folder}/${rel}`)) continue;
      hash.update(`${folder}/${rel}\0`).update(fs.readFileSync(path.join(root, folder, rel))).update('\0');
    }
  }
  for (const file of INPUT_FILES) {
    const full = path.join(root, file);
    hash.update(`${file}\0`).update(fs.existsSync(full) ? fs.readFileSync(full) : 'missing').update('\0');
  }
  for (const key of INPUT_SETTINGS) hash.update(`${key}=${env[key] ?? ''}\0`);
  return hash.digest('hex').slice(0, 32);
}
