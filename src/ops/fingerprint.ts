/**
 * The build fingerprint: everything besides the snapshot that shapes the rendered
 * site (the site's code, config, dependencies and public URLs). An incremental
 * render copies pages from the previous release, which is only sound when that
 * release was rendered by the same code with the same settings.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '../env.ts';
import { listFiles } from './tree.ts';

const INPUT_FOLDERS = ['src', 'public'];
// Code the static build never runs: editing it must not force a full render.
const NOT_RENDERED = /^src\/(?:ops|generate|keys)\//;
const INPUT_FILES = ['astro.config.mjs', 'package-lock.json', 'tsconfig.json', 'data/indexnow.key'];

export function buildFingerprint(env: Env, root = process.cwd()): string {
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
  const settings: Record<string, string> = {
    PUBLIC_WEB_URL: env.publicWebUrl,
    PUBLIC_API_URL: env.publicApiUrl,
    INDEXNOW_KEY: env.indexNowKey ?? '',
    SITEMAP_MAX_URLS: String(env.sitemapMaxUrls),
  };
  for (const [key, value] of Object.entries(settings)) hash.update(`${key}=${value}\0`);
  return hash.digest('hex').slice(0, 32);
}
