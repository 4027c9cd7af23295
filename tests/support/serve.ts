/**
 * Starts scripts/serve.ts (the real server) as a child process on a free loopback
 * port and resolves with its URL. Without ASTRO_SERVER_ENTRY in `env` it serves the
 * API only (no Astro pages), which is what the API tests need. The public rate
 * limit is off unless `env` sets PUBLIC_RATE_LIMIT_PER_MINUTE: every request of a
 * test comes from one address, and only the limit's own tests are about limits.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startServe(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ASTRO_SERVER_ENTRY: '/nonexistent', PUBLIC_RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += String(d);
      const m = /(http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { url, child, stop: () => stopChild(child) };
}
