/**
 * Real system services for the tests (redis-server here; nginx in tests/resilience):
 * a missing binary fails the test with the Debian package to install, never skips.
 */
import { spawn, spawnSync } from 'node:child_process';
import { freePort } from './ports.ts';
import { stopChild } from './serve.ts';

export interface Service {
  url: string;
  stop(): Promise<void>;
}

/** The path of an installed binary (PATH or /usr/sbin), or an error naming the package. */
export function requireBinary(name: string, install: string): string {
  const which = spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name} 2>/dev/null`], { encoding: 'utf8' });
  const found = which.stdout.trim().split('\n')[0];
  if (which.status !== 0 || !found) throw new Error(`${name} is not installed: this test needs it (Debian: ${install})`);
  return found;
}

/** A real redis-server on a free loopback port, no persistence. */
export async function startRedis(): Promise<Service> {
  return startRedisOn(await freePort());
}

/**
 * A real redis-server on a given port (so it can be stopped and started again at the same
 * address). With `dataDir` it keeps its data there (append-only file), as a production Redis
 * holding API keys must: a restart at the same address finds them again.
 */
export async function startRedisOn(port: number, dataDir?: string): Promise<Service> {
  const bin = requireBinary('redis-server', 'apt-get install -y redis-server');
  const persistence = dataDir ? ['--dir', dataDir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
}
