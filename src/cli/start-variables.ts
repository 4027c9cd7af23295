/**
 * The variables the server's and the builder's processes need from their first
 * instruction, and the V8 flags the server's need (src/cli/server-heap.ts), applied
 * first at their edge (scripts/serve.ts, scripts/start.ts, scripts/db-build.ts,
 * scripts/rebuild.ts), which import their modules after it: a process replaced after
 * loading them loaded them twice (the server's 0.4 s more to its first answer).
 *
 * All are read only when a process starts (V8 sizes a heap when it creates it), so a
 * process started without one of them replaces itself with the same program, arguments
 * and environment plus the missing ones (process.execve: same pid, same stdio). A value
 * set by the operator is kept: a variable already set, a flag already given on the
 * command line or in NODE_OPTIONS (by name, whatever its value; `--no-x` names `x`).
 * Where execve is missing (not Linux) nothing changes.
 *
 * MALLOC_MMAP_THRESHOLD_ (glibc's malloc; other C libraries ignore it): glibc serves
 * a block of 128 KB or more with its own mmap and unmaps it when freed, but each such
 * free raises that threshold to the block's size (up to 32 MB): from then on the
 * posting lists a search reads (a few MB each at 1,000,000 providers), their copies
 * between threads and the blobs better-sqlite3 returns come out of the threads' malloc
 * arenas, and the holes they leave stay in the process. With a search thread
 * (SEARCH_THREADS=1) that was 250-300 MB at 1,000,000 providers: after the long-tail
 * load, five runs read 1,603-1,821 MB (median 1,737) and five with a fixed threshold
 * of 1 MB 1,425-1,581 MB (median 1,447), for the same req/s and CPU per request
 * (2026-11-26; bench/results/history.md, "Memory"). With one thread it saves 20-25
 * MB. The builder's peak at 1,000,000 providers: 1,909 MB without it, 1,565 MB with it, in
 * 224 and 226 s (two builds of the same dataset in the same half hour, /usr/bin/time).
 *
 * NODE_COMPILE_CACHE (Node's module compile cache, in the system's temporary folder
 * as Node's own default): the modules' stripped TypeScript and compiled code are
 * kept on disk, keyed by their source, so the next start reads them instead of
 * stripping and compiling again: the server's modules load in 0.34 instead of 0.55
 * s, and `npm run serve` at 1,000,000 providers answered first in 3.02-3.41 instead
 * of 3.41-3.63 s (three starts each, alternated, 2026-11-27). As a variable, not
 * module.enableCompileCache(), so the search and verify threads and the processes a
 * command starts use it too.
 */
import os from 'node:os';
import path from 'node:path';

const START_VARIABLES: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(1024 * 1024),
  NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'node-compile-cache'),
};

/** A flag's name: `--max_semi_space_size=32` and `--max-semi-space-size=16` name the same one, `--no-x` and `--x` too. */
const flagName = (flag: string): string => flag.split('=')[0]!.replaceAll('_', '-').replace(/^--no-/, '--');

/**
 * `env`: the process's environment, as the entry script (the edge) reads it;
 * `v8Flags`: the V8 flags the process needs from its start (none for the builder).
 */
export function withStartVariables(env: NodeJS.ProcessEnv, v8Flags: readonly string[] = []): void {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  const missing = Object.entries(START_VARIABLES).filter(([name]) => env[name] === undefined);
  const given = new Set([...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].map(flagName));
  const flags = v8Flags.filter((flag) => !given.has(flagName(flag)));
  if (missing.length === 0 && flags.length === 0) return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], { ...env, ...Object.fromEntries(missing) });
}
