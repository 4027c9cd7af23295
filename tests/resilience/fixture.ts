/**
 * Real parts for the resilience and ops tests: generated datasets, the real
 * `npm run rebuild` / `npm run rollback` (as child processes, like an editor runs
 * them), real server processes (scripts/serve.ts) whose JSON logs are captured,
 * a real redis-server and a real nginx on free loopback ports. A missing binary
 * fails with a clear message; nothing is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDataset } from '../../src/generate/index.ts';
import { requireBinary, type Service } from '../support/binaries.ts';
import { stopChild } from '../support/serve.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A scratch folder inside the project (.tmp/, git-ignored): release folders must
 * sit under the project so the rendered server bundle resolves node_modules.
 */
export function workspace(prefix: string): string {
  const base = path.join(ROOT, '.tmp');
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, `test-${prefix}-`));
}

export async function generate(dir: string, providers: number, seed: number): Promise<string> {
  await generateDataset({ providers, seed, outDir: dir });
  return dir;
}

/** The settings of one deployment in a test workspace (live snapshot, static root symlink, releases). */
export function deploymentEnv(ws: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DIRECTORY_DB: path.join(ws, 'live', 'directory.db'),
    STATIC_ROOT: path.join(ws, 'live', 'current'),
    RELEASES_DIR: path.join(ws, 'releases'),
    KEYS_DB: path.join(ws, 'keys.db'),
    INDEXNOW_KEY: 'test-indexnow-key-0001',
    PUBLIC_WEB_URL: 'https://direktori.example',
    ...extra,
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a project script (scripts/NAME.ts) as a child process, as `npm run NAME` would. */
export function runScript(name: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`scripts/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function rebuildOk(input: string, env: Record<string, string>, extra: string[] = []): Promise<CliResult> {
  const r = await runScript('rebuild', ['--input', input, ...extra], env);
  if (r.code !== 0) throw new Error(`rebuild failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
}

export function createKey(env: Record<string, string>, tier: 'regular' | 'enterprise'): string {
  const r = spawnSync(process.execPath, ['scripts/keys.ts', 'create', '--tier', tier], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`);
  return r.stdout.trim();
}

export const sha256File = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Every file under dir with its hash: a tree's exact content, for byte-identity checks. */
export function treeHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else out[child] = sha256File(path.join(dir, child));
    }
  };
  walk('');
  return out;
}

import { freePort } from '../support/ports.ts';
export { freePort };

export interface Node {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote (stdout + stderr), for log assertions. */
  output(): string;
  /** The JSON log lines (pino) written so far. */
  logs(): Record<string, unknown>[];
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** scripts/serve.ts on a free port; resolves once it listens. The public rate limit is off unless `env` sets it (load comes from one address). */
export async function startNode(env: Record<string, string>): Promise<Node> {
  const child = spawn(process.execPath, ['scripts/serve.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PUBLIC_RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const onData = () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    url,
    child,
    output: () => out,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export { startRedis, type Service } from '../support/binaries.ts';

/** A real nginx (foreground, own prefix and temp paths) running `httpBlock` inside http {}, on `port` (a free one by default). */
export async function startNginx(dir: string, httpBlock: string, probePath: string, port?: number): Promise<Service> {
  const bin = requireBinary('nginx', 'apt-get install -y nginx');
  port ??= await freePort();
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  // As root, nginx's workers drop to an unprivileged user that cannot read a clone
  // under a 0700 folder (mktemp -d): keep them as the user running the test.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const conf = `daemon off;
${user}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  # nginx closes a client's keep-alive connection after 1,000 requests (the default), and
  # autocannon counts the request it had already written on that connection as an error where a
  # browser or CDN would resend it; a connection here carries more than that in a few seconds.
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${httpBlock.replaceAll('__LISTEN__', `127.0.0.1:${port}`)}
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'logs/error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${err}`);
    try {
      const r = await fetch(url + probePath);
      await r.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, stop: () => stopChild(child) };
}

/** Polls until check() returns a value (or throws after `ms`). Not a timed assertion: it only bounds a wait. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function healthId(url: string): Promise<string> {
  const r = await fetch(`${url}/healthz`);
  const body = (await r.json()) as { snapshot: { id: string } };
  return body.snapshot.id;
}
