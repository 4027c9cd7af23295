/**
 * HTTP under load: autocannon (50 connections, 10 s per route) against the built
 * server (scripts/serve.ts in a child process, the production path) for search,
 * detail and list, then against bench/plain-server.ts (the same search handler on
 * bare node:http) as the floor. Rotating paths: every request a different query,
 * slug or page.
 *
 * Each side runs twice: with the response cache as production runs it (default
 * API_RESPONSE_CACHE_MB, every rotating path requested once before measuring, so
 * the figure is the warm steady state) and with API_RESPONSE_CACHE_MB=0 (every
 * request computed: `searchUncached`, `detailUncached`, `searchPlainNodeUncached`).
 * The plain floor uses the same cache class and setting as production in each run,
 * so both ratios compare like with like.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { loadEnv } from '../src/env.ts';
import { scriptCommand } from './child.ts';
import { progress } from './log.ts';
import { buildQueryMix, type BenchQuery } from './queries.ts';
import { round } from './stats.ts';

export interface HttpFigure {
  rps: number;
  p99Ms: number;
  p50Ms: number;
  p90Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  paths: number;
}

export interface HttpResults {
  /** production path, response cache on (warm) */
  search: HttpFigure;
  detail: HttpFigure;
  list: HttpFigure;
  /** production path, response cache off: every request computed */
  searchUncached: HttpFigure;
  detailUncached: HttpFigure;
  /** plain node:http, same handler, response cache on (warm), as production */
  searchPlainNode: HttpFigure;
  /** plain node:http, same handler, response cache off */
  searchPlainNodeUncached: HttpFigure;
  /** plain node:http search rps / production search rps, both with the cache */
  productionOverPlain: number;
  /** the same ratio with the cache off on both sides */
  productionOverPlainUncached: number;
  /** API_RESPONSE_CACHE_MB of the cached runs */
  responseCacheMb: number;
  serverStartSeconds: number;
  serverRssMb: number | null;
  connections: number;
  seconds: number;
}

export function searchPath(q: BenchQuery): string {
  const params = new URLSearchParams({ q: q.q });
  if (q.city) params.set('city', q.city);
  if (q.categorySlug) params.set('categorySlug', q.categorySlug);
  return `/api/v1/search?${params}`;
}

function rotatingPaths(snapshotFile: string): { search: string[]; detail: string[]; list: string[] } {
  const db = new Database(snapshotFile, { readonly: true, fileMustExist: true });
  // every 97th published slug: spread over the table, not just its first pages
  const slugs = db
    .prepare('SELECT slug FROM published_providers WHERE rowid % 97 = 0 ORDER BY rowid LIMIT 1000')
    .pluck()
    .all() as string[];
  db.close();
  return {
    search: buildQueryMix(1000).map(searchPath),
    detail: slugs.map((s) => `/api/v1/providers/${encodeURIComponent(s)}`),
    list: Array.from({ length: 100 }, (_, i) => `/api/v1/providers?page=${i + 1}`),
  };
}

async function waitForPort(child: ChildProcess, name: string, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start in ${timeoutMs / 1000}s:\n${out.slice(-2000)}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}) before listening:\n${out.slice(-2000)}`));
    });
  });
}

async function startServer(script: string, env: NodeJS.ProcessEnv, name: string): Promise<{ child: ChildProcess; port: number; seconds: number }> {
  const started = performance.now();
  const [cmd, args] = scriptCommand(script);
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForPort(child, name);
  return { child, port, seconds: (performance.now() - started) / 1000 };
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the child has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A process's resident memory in MB from /proc, or null when it is gone. */
export function rssMbOf(pid: number | undefined): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** RSS of a process and its children (a SERVE_PROCESSES > 1 primary and its server processes), in MB. */
export function rssMbOfTree(pid: number | undefined): number | null {
  const own = rssMbOf(pid);
  if (own === null) return null;
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // no /proc children list: the process's own figure
  }
  return children.reduce((sum, child) => sum + (rssMbOfTree(child) ?? 0), own);
}

export async function load(port: number, paths: string[], connections: number, seconds: number): Promise<HttpFigure> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          req.path = paths[next++ % paths.length]!;
          return req;
        },
      },
    ],
  });
  return {
    rps: round(result.requests.average, 1),
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    paths: paths.length,
  };
}

/**
 * Requests before measuring: the first `count` paths (statements compiled, the
 * query layer's per-snapshot memos filled), or every path (the response cache
 * then holds them all: the steady state of a warm server). Two at a time.
 */
async function warm(port: number, paths: string[], count = 30): Promise<void> {
  const todo = paths.slice(0, count);
  const worker = async () => {
    for (let p = todo.shift(); p !== undefined; p = todo.shift()) {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      await res.arrayBuffer();
      if (res.status >= 500) throw new Error(`warm-up ${p} answered ${res.status}`);
    }
  };
  await Promise.all([worker(), worker()]);
}

const ALL = Number.POSITIVE_INFINITY;

/** API_RESPONSE_CACHE_MB as the server will read it (src/env.ts default when unset). */
function cacheMbOf(env: NodeJS.ProcessEnv): number {
  return loadEnv(env).apiResponseCacheMb;
}

/** The environment of a measured server: this snapshot, quiet logs, keys in `tmp`. */
export function serverEnv(snapshotFile: string, tmp: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DIRECTORY_DB: path.resolve(snapshotFile),
    KEYS_DB: path.join(tmp, 'keys.db'),
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    // autocannon's connections all come from 127.0.0.1: the public per-client limit would answer 429.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
  };
}

export async function runHttp(snapshotFile: string, opts: { connections: number; seconds: number }): Promise<HttpResults> {
  const paths = rotatingPaths(snapshotFile);
  const tmp = fs.mkdtempSync(path.join('bench/cache', 'http-'));
  const env = serverEnv(snapshotFile, tmp);
  const uncachedEnv = { ...env, API_RESPONSE_CACHE_MB: '0' };
  const responseCacheMb = cacheMbOf(env);
  const run = async (name: string, script: string, serverEnv: NodeJS.ProcessEnv, body: (port: number) => Promise<void>) => {
    progress(`http: starting ${name} ...`);
    const server = await startServer(script, serverEnv, name);
    try {
      await body(server.port);
      return { seconds: server.seconds, rssMb: rssMbOf(server.child.pid) };
    } finally {
      await stop(server.child);
    }
  };
  const measure = (port: number, label: string, list: string[]) => {
    progress(`http: ${label} (${opts.connections} connections, ${opts.seconds}s) ...`);
    return load(port, list, opts.connections, opts.seconds);
  };
  let search!: HttpFigure, detail!: HttpFigure, list!: HttpFigure;
  let searchUncached!: HttpFigure, detailUncached!: HttpFigure;
  let searchPlainNode!: HttpFigure, searchPlainNodeUncached!: HttpFigure;
  try {
    const prod = await run(`scripts/serve.ts (response cache ${responseCacheMb} MB)`, 'scripts/serve.ts', env, async (port) => {
      for (const kind of [paths.search, paths.detail, paths.list]) await warm(port, kind, ALL);
      search = await measure(port, 'search', paths.search);
      detail = await measure(port, 'detail', paths.detail);
      list = await measure(port, 'list', paths.list);
    });
    await run('scripts/serve.ts (response cache off)', 'scripts/serve.ts', uncachedEnv, async (port) => {
      for (const kind of [paths.search, paths.detail]) await warm(port, kind);
      searchUncached = await measure(port, 'search, uncached', paths.search);
      detailUncached = await measure(port, 'detail, uncached', paths.detail);
    });
    await run('bench/plain-server.ts (response cache on)', 'bench/plain-server.ts', env, async (port) => {
      await warm(port, paths.search, ALL);
      searchPlainNode = await measure(port, 'plain node:http search', paths.search);
    });
    await run('bench/plain-server.ts (response cache off)', 'bench/plain-server.ts', uncachedEnv, async (port) => {
      await warm(port, paths.search);
      searchPlainNodeUncached = await measure(port, 'plain node:http search, uncached', paths.search);
    });
    return {
      search,
      detail,
      list,
      searchUncached,
      detailUncached,
      searchPlainNode,
      searchPlainNodeUncached,
      productionOverPlain: round(searchPlainNode.rps / Math.max(search.rps, 0.001), 2),
      productionOverPlainUncached: round(searchPlainNodeUncached.rps / Math.max(searchUncached.rps, 0.001), 2),
      responseCacheMb,
      serverStartSeconds: round(prod.seconds, 2),
      serverRssMb: prod.rssMb,
      connections: opts.connections,
      seconds: opts.seconds,
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
