/**
 * A network namespace of the test's own (`ip netns`, root only): a loopback of its
 * own, so nginx and the node can take the default ports 80 and 443 that the
 * Observatory scanner reads, without touching the machine's. Every process that
 * must reach them runs inside it (`prefix`), the test's requests included
 * (tests/security/support/netns-fetch.ts).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';

const FETCH_SCRIPT = path.join(import.meta.dirname, 'netns-fetch.ts');

export interface FetchedHeaders {
  url: string;
  status: number;
  headers: Record<string, string>;
}

export class NetworkNamespace {
  readonly name: string;
  readonly prefix: string[];

  private constructor(name: string) {
    this.name = name;
    this.prefix = ['ip', 'netns', 'exec', name];
  }

  /** `NAME-PID`: a namespace left by a run whose process is gone (killed mid-test) is removed first. */
  static create(name: string, pid = process.pid): NetworkNamespace {
    if (process.getuid?.() !== 0) throw new Error('this test needs root for `ip netns` (nginx on ports 80 and 443 in a namespace of its own); .ci/run runs as root');
    removeStale(name);
    name = `${name}-${pid}`;
    for (const args of [['netns', 'add', name], ['-n', name, 'link', 'set', 'lo', 'up']]) {
      const r = spawnSync('ip', args, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${r.stderr || r.error?.message}`);
    }
    return new NetworkNamespace(name);
  }

  spawn(command: string, args: string[], options: SpawnOptions): ChildProcess {
    return spawn(this.prefix[0]!, [...this.prefix.slice(1), command, ...args], options);
  }

  /** Runs a command inside to its end; its stdout, or an error with its stderr. */
  run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): string {
    const r = spawnSync(this.prefix[0]!, [...this.prefix.slice(1), command, ...args], { env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${this.name} exited ${r.status}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  /** GETs the URLs from inside (no redirect followed), trusting the CA file; retries each until `waitMs` has passed. */
  fetchHeaders(urls: string[], caFile: string, waitMs = 0): FetchedHeaders[] {
    const out = this.run(process.execPath, [FETCH_SCRIPT, JSON.stringify({ urls, waitMs })], { ...process.env, NODE_EXTRA_CA_CERTS: caFile });
    return JSON.parse(out) as FetchedHeaders[];
  }

  remove(): void {
    spawnSync('ip', ['netns', 'del', this.name]);
  }
}

function removeStale(base: string): void {
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const line of listed.split('\n')) {
    const m = new RegExp(`^(${base}-(\\d+))\\b`).exec(line.trim());
    if (!m) continue;
    try {
      process.kill(Number(m[2]), 0);
    } catch {
      spawnSync('ip', ['netns', 'del', m[1]!]);
    }
  }
}
