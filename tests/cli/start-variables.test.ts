/**
 * src/cli/start-variables.ts: a process started without MALLOC_MMAP_THRESHOLD_ or
 * NODE_COMPILE_CACHE, or without one of the V8 flags its edge asks for, replaces itself
 * once (same pid, arguments kept) with the missing ones set; an operator's values are
 * left as they are. The server's own processes are checked in
 * tests/resilience/serve-processes.test.ts.
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
const { default: v8 } = await import('node:v8');
console.log(JSON.stringify({ pid: process.pid, threshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, cache: process.env.NODE_COMPILE_CACHE ?? null, cacheDir: module.getCompileCacheDir() ?? null, args: process.argv.slice(2), execArgv: process.execArgv, heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20) }));
withStartVariables(process.env, process.env.TEST_V8_FLAGS ? process.env.TEST_V8_FLAGS.split(' ') : []);
`,
);
const cacheDir = path.join(dir, 'compile-cache');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Line {
  pid: number;
  threshold: string | null;
  cache: string | null;
  cacheDir: string | null;
  args: string[];
  execArgv: string[];
  /** the heap's limit: the old generation's plus three semi-spaces (--max-semi-space-size) */
  heapLimitMb: number;
}

function run(env: Record<string, string | undefined>, execArgv: string[] = []): Line[] {
  const out = spawnSync(process.execPath, [...execArgv, script, 'first', 'second'], {
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
    expect(before).toMatchObject({ pid: before!.pid, threshold: null, cache: null, cacheDir: null, args: ['first', 'second'], execArgv: [] });
    const defaultCache = path.join(os.tmpdir(), 'node-compile-cache');
    expect(after).toMatchObject({ pid: before!.pid, threshold: String(1024 * 1024), cache: defaultCache, cacheDir: expect.stringContaining(defaultCache), args: ['first', 'second'], execArgv: [] });
  });

  it('adds only the missing one', () => {
    const [before, after, ...more] = run({ MALLOC_MMAP_THRESHOLD_: '262144', NODE_COMPILE_CACHE: undefined });
    expect(more).toEqual([]);
    expect(after).toMatchObject({ pid: before!.pid, threshold: '262144', cache: path.join(os.tmpdir(), 'node-compile-cache') });
  });

  it("keeps an operator's values and does not replace the process", () => {
    const lines = run({ MALLOC_MMAP_THRESHOLD_: '262144', NODE_COMPILE_CACHE: cacheDir });
    expect(lines).toEqual([{ pid: lines[0]!.pid, threshold: '262144', cache: cacheDir, cacheDir: expect.stringContaining(cacheDir), args: ['first', 'second'], execArgv: [], heapLimitMb: lines[0]!.heapLimitMb }]);
    // Node wrote the modules it compiled there.
    expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0);
  });

  const set = { MALLOC_MMAP_THRESHOLD_: '262144', NODE_COMPILE_CACHE: cacheDir };
  const flags = '--max-semi-space-size=1 --no-allocation-site-pretenuring';

  it('gives the missing V8 flags on the command line, before the ones given, and V8 sizes the heap by them', () => {
    const [before, after, ...more] = run({ ...set, TEST_V8_FLAGS: flags }, ['--stack-size=900']);
    expect(more).toEqual([]);
    expect(before).toMatchObject({ execArgv: ['--stack-size=900'], args: ['first', 'second'] });
    expect(after).toMatchObject({ pid: before!.pid, execArgv: ['--max-semi-space-size=1', '--no-allocation-site-pretenuring', '--stack-size=900'], args: ['first', 'second'] });
    // Three semi-spaces of 1 MB at most instead of V8's default (16 MB or more each on 64 bits).
    expect(before!.heapLimitMb - after!.heapLimitMb).toBeGreaterThanOrEqual(3 * (16 - 1));
  });

  it("keeps an operator's flag, by name, on the command line or in NODE_OPTIONS", () => {
    // The same names with other values: -- and _ spellings, and the flag's --no- form turned around.
    const given = run({ ...set, TEST_V8_FLAGS: flags }, ['--max_semi_space_size=2', '--allocation-site-pretenuring']);
    expect(given).toEqual([expect.objectContaining({ execArgv: ['--max_semi_space_size=2', '--allocation-site-pretenuring'] })]);
    const inOptions = run({ ...set, TEST_V8_FLAGS: flags, NODE_OPTIONS: '--max-semi-space-size=2' });
    expect(inOptions).toHaveLength(2);
    expect(inOptions[1]!.execArgv).toEqual(['--no-allocation-site-pretenuring']);
  });
});
