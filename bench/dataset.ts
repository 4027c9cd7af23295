/**
 * The benchmark's inputs, cached under bench/cache/ (gitignored):
 *   dataset-n<N>-s<seed>-g<generator hash>/   written by `data:generate`
 *   snapshot-n<N>-s<seed>-g<...>-b<builder hash>.db   written by `db:build`
 * The hashes cover the generator's and the builder's source, so a code change never
 * benchmarks a stale file. Both are produced by the project's own CLIs in a child
 * process, which is also how the snapshot build is timed (bench/child.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { runMeasured, scriptCommand, type ChildRun } from './child.ts';
import { progress } from './log.ts';

export const CACHE_DIR = 'bench/cache';

/** A short hash of the given files and of every file under the given folders (names and bytes). */
export function sourceHash(folders: string[]): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|sql|json)$/.test(entry.name)) hash.update(full).update(fs.readFileSync(full));
    }
  };
  for (const f of folders) {
    if (!fs.existsSync(f)) continue;
    if (fs.statSync(f).isDirectory()) walk(f);
    else hash.update(f).update(fs.readFileSync(f));
  }
  return hash.digest('hex').slice(0, 8);
}

export interface DatasetRef {
  dir: string;
  providers: number;
  seed: number;
  /** null when the cached copy was reused */
  generateSeconds: number | null;
}

const COMPLETE = '.complete';

export async function ensureDataset(providers: number, seed: number, fresh: boolean): Promise<DatasetRef> {
  const dir = path.join(CACHE_DIR, `dataset-n${providers}-s${seed}-g${sourceHash(['src/generate', 'src/schemas', 'src/text/city-slug.ts'])}`);
  if (!fresh && fs.existsSync(path.join(dir, COMPLETE))) {
    progress(`dataset: reusing ${dir}`);
    return { dir, providers, seed, generateSeconds: null };
  }
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  progress(`dataset: generating ${providers.toLocaleString('en-US')} providers (seed ${seed}) ...`);
  const [cmd, args] = scriptCommand('scripts/data-generate.ts', ['--providers', String(providers), '--seed', String(seed), '--out', partial]);
  const run = await runMeasured(cmd, args);
  if (run.exitCode !== 0) throw new Error(`data:generate failed (exit ${run.exitCode}):\n${run.stderr.slice(-2000)}`);
  fs.writeFileSync(path.join(partial, COMPLETE), new Date().toISOString());
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return { dir, providers, seed, generateSeconds: run.seconds };
}

export function snapshotFileFor(dataset: DatasetRef): string {
  const builder = sourceHash(['src/snapshot', 'src/schemas', 'src/text', 'src/language']);
  return path.join(CACHE_DIR, `${path.basename(dataset.dir)}-b${builder}.db`);
}

export interface SnapshotBuild {
  file: string;
  /** null when the cached snapshot was reused (not measured) */
  run: ChildRun | null;
}

/**
 * Builds the snapshot with `db:build` (measured) unless a cached one may be reused.
 * `measure` forces a build: the snapshot part always times a real one.
 */
export async function ensureSnapshot(dataset: DatasetRef, options: { measure: boolean; fresh: boolean; out?: string }): Promise<SnapshotBuild> {
  const file = options.out ?? snapshotFileFor(dataset);
  if (!options.measure && !options.fresh && fs.existsSync(file)) {
    progress(`snapshot: reusing ${file}`);
    return { file, run: null };
  }
  const tmp = `${file}.bench-tmp`;
  fs.rmSync(tmp, { force: true });
  progress(`snapshot: db:build of ${dataset.providers.toLocaleString('en-US')} providers ...`);
  const [cmd, args] = scriptCommand('scripts/db-build.ts', ['--input', dataset.dir, '--out', tmp]);
  const run = await runMeasured(cmd, args);
  if (run.exitCode !== 0) throw new Error(`db:build failed (exit ${run.exitCode}):\n${(run.stderr || run.stdout).slice(-2000)}`);
  fs.renameSync(tmp, file);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${tmp}${suffix}`, { force: true });
  progress(`snapshot: built in ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb ?? '?'} MB`);
  return { file, run };
}
