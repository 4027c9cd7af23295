/**
 * src/cli/start-variables.ts: a process started without MALLOC_MMAP_THRESHOLD_ or
 * NODE_COMPILE_CACHE replaces itself once (same pid, arguments kept) with the missing
 * ones set; an operator's values are left as they are. The server's own processes are
 * checked in tests/resilience/serve-processes.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A script file, as the entry points are (scripts/serve.ts, scripts/start.ts).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-start-variables-'));
const script = path.join(dir, 'entry.mjs');
fs.writeFileSync(
  script,
  `const { withStartVariables } = await import(${JSON.stringify(pathToFileURL(path.resolve('src/cli/start-variables.ts')).href)});
const { default: module } = await import('node:module');
console.log(JSON.stringify({ pid: process.pid, threshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, cache: process.env.NODE_COMPILE_CACHE ?? null, cacheDir: module.getCompileCacheDir() ?? null, args: process.argv.slice(2) }));
withStartVariables(process.env);
`,
);
const cacheDir = path.join(dir, 'compile-cache');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string | undefined>): { pid: number; threshold: string | null; cache: string | null; cacheDir: string | null; args: string[] }[] {
  const out = spawnSync(process.execPath, [script, 'first', 'second'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

describe.runIf(process.platform === 'linux')('the start variables', () => {
  it('are set by replacing the process once, with the same pid and arguments, and the compile cache is on', () => {
    // The script runs twice in one process: before the replacement, without the variables, and after it.
    const [before, after, ...more] = run({ MALLOC_MMAP_THRESHOLD_: undefined, NODE_COMPILE_CACHE: undefined });
    expect(more).toEqual([]);
    expect(before).toEqual({ pid: before!.pid, threshold: null, cache: null, cacheDir: null, args: ['first', 'second'] });
    const defaultCache = path.join(os.tmpdir(), 'node-compile-cache');
    expect(after).toEqual({ pid: before!.pid, threshold: String(1024 * 1024), cache: defaultCache, cacheDir: expect.stringContaining(defaultCache), args: ['first', 'second'] });
  });

  it('adds only the missing one', () => {
    const [before, after, ...more] = run({ MALLOC_MMAP_THRESHOLD_: '262144', NODE_COMPILE_CACHE: undefined });
    expect(more).toEqual([]);
    expect(after).toMatchObject({ pid: before!.pid, threshold: '262144', cache: path.join(os.tmpdir(), 'node-compile-cache') });
  });

  it("keeps an operator's values and does not replace the process", () => {
    const lines = run({ MALLOC_MMAP_THRESHOLD_: '262144', NODE_COMPILE_CACHE: cacheDir });
    expect(lines).toEqual([{ pid: lines[0]!.pid, threshold: '262144', cache: cacheDir, cacheDir: expect.stringContaining(cacheDir), args: ['first', 'second'] }]);
    // Node wrote the modules it compiled there.
    expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0);
  });
});
