/**
 * The allocator setting of the server's and the builder's processes, applied first at
 * their edge (scripts/serve.ts, scripts/start.ts, scripts/db-build.ts, scripts/rebuild.ts),
 * which import their modules after it: a process replaced after loading them loaded them
 * twice (the server's 0.4 s more to its first answer).
 *
 * glibc's malloc serves a block of 128 KB or more with its own mmap and unmaps it when
 * freed, but each such free raises that threshold to the block's size (up to 32 MB):
 * from then on the posting lists a search reads (a few MB each at 1,000,000 providers),
 * their copies between threads and the blobs better-sqlite3 returns come out of the
 * threads' malloc arenas, and the holes they leave stay in the process. With a search
 * thread (SEARCH_THREADS=1) that was 250-300 MB at 1,000,000 providers: after the
 * long-tail load, five runs read 1,603-1,821 MB (median 1,737) and five with a fixed
 * threshold of 1 MB 1,425-1,581 MB (median 1,447), for the same req/s and CPU per
 * request (2026-11-26, bench/results/README.md). With one thread it saves 20-25 MB.
 * The builder's peak at 1,000,000 providers: 1,909 MB without it, 1,565 MB with it, in
 * 224 and 226 s (two builds of the same dataset in the same half hour, /usr/bin/time).
 *
 * glibc reads MALLOC_MMAP_THRESHOLD_ only when a process starts, so a process started
 * without it replaces itself with the same program, arguments and environment plus the
 * variable (process.execve: same pid, same stdio). A value set by the operator is kept.
 * Other C libraries ignore the variable; where execve is missing nothing changes.
 */
const MMAP_THRESHOLD_BYTES = 1024 * 1024;

/** `env`: the process's environment, as the entry script (the edge) reads it. */
export function withAllocatorSetting(env: NodeJS.ProcessEnv): void {
  if (process.platform !== 'linux' || typeof process.execve !== 'function' || env.MALLOC_MMAP_THRESHOLD_ !== undefined) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...env,
    MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES),
  });
}
