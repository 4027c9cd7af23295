/**
 * Where releases live, from the settings: DIRECTORY_DB (the live snapshot),
 * STATIC_ROOT (the live site; for rebuilds a symlink, default releases/current)
 * and RELEASES_DIR (default releases/). Outside dist/ on purpose: `astro build`
 * may empty dist/, and the live site must survive a plain `npm run build`.
 */
import path from 'node:path';
import { DEFAULT_LIVE_STATIC_ROOT, type Env } from '../env.ts';
import type { ReleasePaths } from './releases.ts';

export function releasePaths(env: Env, cwd = process.cwd()): ReleasePaths {
  return {
    releasesDir: env.releasesDir,
    liveSnapshot: env.directoryDb,
    staticRoot: env.staticRootExplicit ? env.staticRoot : path.resolve(cwd, DEFAULT_LIVE_STATIC_ROOT),
  };
}
