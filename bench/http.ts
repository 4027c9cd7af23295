/**
 * HTTP under load: autocannon (50 connections, 10 s per route) against the built
 * server (scripts/serve.ts in a child process, the production path) for search,
 * detail and list, then against bench/plain-server.ts (the same search handler on
 * bare node:http) as the floor. Rotating paths: every request a different query,
 * slug or page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { tsxCommand } from './child.ts';
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
  search: HttpFigure;
  detail: HttpFigure;
  list: HttpFigure;
  searchPlainNode: HttpFigure;
  /** production search rps / plain node:http search rps */
  productionOverPlain: number;
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
  const [cmd, args] = tsxCommand(script);
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForPort(child, name);
  return { child, port, seconds: (performance.now() - started) / 1000 };
}

function stop(child: ChildProcess): Promise<void> {
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

function rssMbOf(pid: number | undefined): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
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

/** A few requests on each path kind before measuring: statements compiled, caches warm. */
async function warm(port: number, paths: string[]): Promise<void> {
  for (const p of paths.slice(0, 30)) {
    const res = await fetch(`http://127.0.0.1:${port}${p}`);
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`warm-up ${p} answered ${res.status}`);
  }
}

export async function runHttp(snapshotFile: string, opts: { connections: number; seconds: number }): Promise<HttpResults> {
  const paths = rotatingPaths(snapshotFile);
  const tmp = fs.mkdtempSync(path.join('bench/cache', 'http-'));
  const env = {
    ...process.env,
    DIRECTORY_DB: path.resolve(snapshotFile),
    KEYS_DB: path.join(tmp, 'keys.db'),
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
  };
  progress('http: starting scripts/serve.ts ...');
  const prod = await startServer('scripts/serve.ts', env, 'scripts/serve.ts');
  let search: HttpFigure, detail: HttpFigure, list: HttpFigure, serverRssMb: number | null;
  try {
    await warm(prod.port, paths.search);
    await warm(prod.port, paths.detail);
    await warm(prod.port, paths.list);
    progress(`http: search (${opts.connections} connections, ${opts.seconds}s) ...`);
    search = await load(prod.port, paths.search, opts.connections, opts.seconds);
    progress(`http: detail ...`);
    detail = await load(prod.port, paths.detail, opts.connections, opts.seconds);
    progress(`http: list ...`);
    list = await load(prod.port, paths.list, opts.connections, opts.seconds);
    serverRssMb = rssMbOf(prod.child.pid);
  } finally {
    await stop(prod.child);
  }
  progress('http: plain node:http floor ...');
  const plain = await startServer('bench/plain-server.ts', env, 'bench/plain-server.ts');
  let searchPlainNode: HttpFigure;
  try {
    await warm(plain.port, paths.search);
    searchPlainNode = await load(plain.port, paths.search, opts.connections, opts.seconds);
  } finally {
    await stop(plain.child);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return {
    search,
    detail,
    list,
    searchPlainNode,
    productionOverPlain: round(searchPlainNode.rps / Math.max(search.rps, 0.001), 2),
    serverStartSeconds: round(prod.seconds, 2),
    serverRssMb,
    connections: opts.connections,
    seconds: opts.seconds,
  };
}
