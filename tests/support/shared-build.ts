/**
 * A build shared by every test file of one vitest run: test files run in parallel
 * worker processes; the first to ask builds into .tmp/<name>-<vitest pid> (guarded
 * by an atomic mkdir), the others wait for its ready file. The folder is keyed by
 * the vitest main process id (every worker's parent), so each run builds once and
 * runs never mix; folders of runs whose process is gone are removed. Callers treat
 * the folder as read-only (copy what they change).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILD_TIMEOUT_MS = 240_000;

/** The shared folder of `name` for this vitest run, built by `build(dir)` the first time it is asked for. */
export async function sharedBuild(name: string, build: (dir: string) => Promise<void>): Promise<string> {
  const dir = path.join(ROOT, '.tmp', `${name}-${process.ppid}`);
  const ready = path.join(dir, 'ready');
  const failed = path.join(dir, 'failed.txt');
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let owner = false;
  try {
    fs.mkdirSync(dir);
    owner = true;
  } catch {
    // another worker builds it
  }
  if (owner) {
    removeStale(name, dir);
    try {
      await build(dir);
      fs.writeFileSync(ready, '');
    } catch (err) {
      fs.writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
    return dir;
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(ready)) return dir;
    if (fs.existsSync(failed)) throw new Error(`${name} build failed in another worker:\n${fs.readFileSync(failed, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} not ready after ${BUILD_TIMEOUT_MS / 1000}s (${dir})`);
}

/** Folders of `name` left by earlier runs whose vitest process is gone. */
function removeStale(name: string, current: string): void {
  const parent = path.dirname(current);
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`);
  for (const entry of fs.readdirSync(parent)) {
    const m = pattern.exec(entry);
    if (!m || path.join(parent, entry) === current) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      fs.rmSync(path.join(parent, entry), { recursive: true, force: true });
    }
  }
}
