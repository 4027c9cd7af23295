/**
 * The long-tail mix over HTTP: `npm run serve` (scripts/serve.ts) in a child
 * process, autocannon with 50 connections rotating over thousands of distinct
 * search URLs (no URL requested before the run), once with the response cache as
 * configured by default and once with API_RESPONSE_CACHE_MB=0.
 *
 * Per run: req/s, p50/p99, errors, timeouts, non-2xx; time to first answer (spawn
 * to the first search answered); then a settling load of other distinct queries
 * (`settle` of them, 8 connections: the JIT, and the warm-up the server finishes
 * between requests after its first answer), a wait until /healthz reports the
 * snapshot's full integrity check done (`snapshot.verified`: at 1M the check runs
 * on a worker thread for about 15 s after the first answer, and its CPU would
 * otherwise be counted against the searches), then the measured load; server RSS
 * after it; and the response
 * cache's hit rate over the run, from the counters GET /healthz reports as
 * `responseCache: {hits, misses, entries, bytes}` (null when the server does not
 * report them, and with SERVE_PROCESSES > 1: each /healthz answer is one process's
 * counters, and two reads may come from different processes).
 * With SERVE_PROCESSES > 1 the RSS is the sum over the primary and its server processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { scriptCommand } from './child.ts';
import { load, rssMbOfTree, serverEnv, stop, type HttpFigure } from './http.ts';
import { progress } from './log.ts';
import { round } from './stats.ts';

export interface CacheCounters {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

export interface LongTailHttpRun extends HttpFigure {
  /** API_RESPONSE_CACHE_MB of the server (null: its default) */
  cacheMb: number | null;
  /** SERVE_PROCESSES of the server */
  serveProcesses: number;
  /** SEARCH_THREADS of the server (absent in runs before the setting) */
  searchThreads?: number;
  firstAnswerSeconds: number;
  /** start to the full integrity check reported done by /healthz (the check overlaps the settling load) */
  verifiedSeconds: number;
  serverRssMb: number | null;
  /** hits / (hits + misses) during the run; null when /healthz has no counters */
  cacheHitRate: number | null;
  cacheAfter: CacheCounters | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server and waits for its first answered search: the time to first answer. */
async function startAndAnswer(env: NodeJS.ProcessEnv, firstPath: string): Promise<{ child: ChildProcess; port: number; seconds: number; startedAt: number }> {
  const started = performance.now();
  const [cmd, args] = scriptCommand('scripts/serve.ts');
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 120 s:\n${out.slice(-2000)}`)), 120_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (code ${code}) before listening:\n${out.slice(-2000)}`));
    });
  });
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}${firstPath}`).catch(() => null);
    if (res) {
      await res.arrayBuffer();
      if (res.status === 200) break;
    }
    await sleep(20);
  }
  return { child, port, seconds: (performance.now() - started) / 1000, startedAt: started };
}

async function cacheCounters(port: number): Promise<CacheCounters | null> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  const body = (await res.json()) as { responseCache?: CacheCounters };
  const c = body.responseCache;
  return c && typeof c.hits === 'number' && typeof c.misses === 'number' ? c : null;
}

/**
 * Waits until /healthz says the snapshot's full check passed. With several server
 * processes each answer is one process's: 4 answers in a row per process must say so.
 */
export async function waitVerified(port: number, serveProcesses: number): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (let inARow = 0; inARow < 4 * serveProcesses; ) {
    if (Date.now() > deadline) throw new Error('the snapshot was not reported verified within 180 s');
    const body = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { snapshot?: { verified?: boolean } };
    inARow = body.snapshot?.verified === true ? inARow + 1 : 0;
    if (inARow === 0) await sleep(250);
  }
}

/** Requests every path once, `connections` at a time. */
async function settle(port: number, paths: string[], connections: number): Promise<void> {
  const todo = [...paths];
  const worker = async () => {
    for (let p = todo.shift(); p !== undefined; p = todo.shift()) await (await fetch(`http://127.0.0.1:${port}${p}`)).arrayBuffer();
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

export async function runLongTailHttp(
  snapshotFile: string,
  paths: string[],
  opts: { connections: number; seconds: number; cacheMb: number | null; settlePaths: string[]; serveProcesses: number; searchThreads: number },
): Promise<LongTailHttpRun> {
  const tmp = fs.mkdtempSync(path.join('bench/cache', 'long-tail-'));
  const env: NodeJS.ProcessEnv = {
    ...serverEnv(snapshotFile, tmp),
    SERVE_PROCESSES: String(opts.serveProcesses),
    SEARCH_THREADS: String(opts.searchThreads),
    ...(opts.cacheMb === null ? {} : { API_RESPONSE_CACHE_MB: String(opts.cacheMb) }),
  };
  delete env.CI;
  const label = `${opts.cacheMb === null ? 'default cache' : `API_RESPONSE_CACHE_MB=${opts.cacheMb}`}, SERVE_PROCESSES=${opts.serveProcesses}, SEARCH_THREADS=${opts.searchThreads}`;
  const counters = (port: number) => (opts.serveProcesses === 1 ? cacheCounters(port) : Promise.resolve(null));
  progress(`long tail http: starting npm run serve (${label}) ...`);
  // The first answer is a query the load does not use.
  const server = await startAndAnswer(env, '/api/v1/search?q=first+answer');
  try {
    progress(`long tail http: settling with ${opts.settlePaths.length} other queries (${label}) ...`);
    await settle(server.port, opts.settlePaths, 8);
    progress(`long tail http: waiting for the snapshot's full integrity check (${label}) ...`);
    await waitVerified(server.port, opts.serveProcesses);
    const verifiedSeconds = (performance.now() - server.startedAt) / 1000;
    const before = await counters(server.port);
    progress(`long tail http: ${paths.length} distinct URLs, ${opts.connections} connections, ${opts.seconds}s (${label}) ...`);
    const figure = await load(server.port, paths, opts.connections, opts.seconds);
    const after = await counters(server.port);
    const hits = before && after ? after.hits - before.hits : null;
    const misses = before && after ? after.misses - before.misses : null;
    return {
      ...figure,
      cacheMb: opts.cacheMb,
      serveProcesses: opts.serveProcesses,
      searchThreads: opts.searchThreads,
      firstAnswerSeconds: round(server.seconds, 2),
      verifiedSeconds: round(verifiedSeconds, 1),
      serverRssMb: rssMbOfTree(server.child.pid),
      cacheHitRate: hits !== null && misses !== null && hits + misses > 0 ? round(hits / (hits + misses), 3) : null,
      cacheAfter: after,
    };
  } finally {
    await stop(server.child);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
