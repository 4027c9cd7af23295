/**
 * Runs a full `astro build` for one release: DIRECTORY_DB points at the release's
 * own snapshot, ASTRO_OUT_DIR at a fresh folder (astro.config.mjs reads it), and
 * RENDER_MANIFEST_DIR at the folder where each route records its paths
 * (src/site/render-scope.ts). A small publish renders without a build
 * (page-renderer.ts). The build's output goes to a log file; its tail is shown
 * when the build fails. The child reports its peak memory as it exits
 * (peak-rss-report.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { OpsError } from './releases.ts';

export interface SiteBuildOptions {
  snapshotFile: string;
  outDir: string;
  manifestDir: string;
  logFile: string;
  projectRoot?: string;
  /** The environment the entry point was started with (scripts/rebuild.ts): the child build inherits it, with the release's own paths over it. */
  baseEnv: NodeJS.ProcessEnv;
}

/** Builds; resolves with the child's peak RSS in MB. */
export async function runAstroBuild(o: SiteBuildOptions): Promise<number> {
  const root = o.projectRoot ?? process.cwd();
  fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
  const log = fs.openSync(o.logFile, 'w');
  const env: NodeJS.ProcessEnv = {
    ...o.baseEnv,
    DIRECTORY_DB: o.snapshotFile,
    ASTRO_OUT_DIR: o.outDir,
    RENDER_MANIFEST_DIR: o.manifestDir,
    ASTRO_TELEMETRY_DISABLED: '1',
    RENDER_PEAK_RSS_FILE: `${o.logFile}.peak-rss`,
  };
  // A full build renders everything, whatever the entry point was started with.
  delete env.RENDER_SCOPE_FILE;
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', path.join(root, 'src/ops/peak-rss-report.ts'), path.join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: root,
      env,
      stdio: ['ignore', log, log],
    });
    child.on('error', reject);
    child.on('exit', (c) => resolve(c));
  }).finally(() => fs.closeSync(log));
  if (code !== 0) {
    const tail = fs.readFileSync(o.logFile, 'utf8').split('\n').slice(-25).join('\n');
    throw new OpsError(`astro build failed (exit ${code}); last lines of ${o.logFile}:\n${tail}`);
  }
  const peakKb = Number(fs.readFileSync(env.RENDER_PEAK_RSS_FILE!, 'utf8'));
  fs.rmSync(env.RENDER_PEAK_RSS_FILE!);
  return Math.round(peakKb / 1024);
}
