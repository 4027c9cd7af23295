/**
 * The static build figure: `astro build` against the benchmark snapshot
 * (DIRECTORY_DB set), in a child process: wall time, pages per second and peak RSS
 * of the process tree (worker threads included: the VIC cards are written on one,
 * see src/site/astro-integration.ts). Pages = the HTML files written under
 * dist/client; VIC cards and sitemaps are counted beside them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runMeasured } from './child.ts';
import { progress } from './log.ts';

export interface BuildResult {
  seconds: number;
  pagesPerSecond: number;
  peakRssMb: number | null;
  htmlPages: number;
  vicCards: number;
  sitemaps: number;
  files: number;
  outDir: string;
}

function countOutput(dir: string): { html: number; vic: number; sitemaps: number; files: number } {
  const counts = { html: 0, vic: 0, sitemaps: 0, files: 0 };
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        counts.files++;
        if (entry.name.endsWith('.html')) counts.html++;
        else if (/sitemap.*\.xml$/.test(entry.name)) counts.sitemaps++;
        else if (entry.name.endsWith('.json') && /vic/i.test(full)) counts.vic++;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return counts;
}

/**
 * Builds into bench/cache/dist-<n> (astro's --outDir) so the benchmark never
 * replaces the project's own dist/.
 */
export async function runStaticBuild(snapshotFile: string, providers: number): Promise<BuildResult> {
  const outDir = path.resolve('bench/cache', `dist-${providers}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  progress(`build: astro build of ${providers.toLocaleString('en-US')} providers (this is the long one) ...`);
  const run = await runMeasured(process.execPath, [path.resolve('node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], {
    env: {
      ...process.env,
      DIRECTORY_DB: path.resolve(snapshotFile),
      ASTRO_TELEMETRY_DISABLED: '1',
      PUBLIC_WEB_URL: process.env.PUBLIC_WEB_URL ?? 'https://bench.example',
    },
  });
  if (run.exitCode !== 0) throw new Error(`astro build failed (exit ${run.exitCode}):\n${(run.stderr || run.stdout).slice(-3000)}`);
  const clientDir = fs.existsSync(path.join(outDir, 'client')) ? path.join(outDir, 'client') : outDir;
  const counts = countOutput(clientDir);
  return {
    seconds: Math.round(run.seconds * 10) / 10,
    pagesPerSecond: Math.round(counts.html / run.seconds),
    peakRssMb: run.peakRssMb,
    htmlPages: counts.html,
    vicCards: counts.vic,
    sitemaps: counts.sitemaps,
    files: counts.files,
    outDir: path.relative(process.cwd(), outDir),
  };
}
