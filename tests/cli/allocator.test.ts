/**
 * src/cli/allocator.ts: a process started without MALLOC_MMAP_THRESHOLD_ replaces itself
 * (same pid, arguments kept) with the variable set; an operator's value is left as it is.
 * The server's own processes are checked in tests/resilience/serve-processes.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A script file, as the entry points are (scripts/serve.ts, scripts/start.ts).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-allocator-'));
const script = path.join(dir, 'entry.mjs');
fs.writeFileSync(
  script,
  `const { withAllocatorSetting } = await import(${JSON.stringify(pathToFileURL(path.resolve('src/cli/allocator.ts')).href)});
console.log(JSON.stringify({ pid: process.pid, threshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, args: process.argv.slice(2) }));
withAllocatorSetting(process.env);
`,
);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string | undefined>): { pid: number; threshold: string | null; args: string[] }[] {
  const out = spawnSync(process.execPath, [script, 'first', 'second'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

describe.runIf(process.platform === 'linux')('the allocator setting', () => {
  it('is set by replacing the process once, with the same pid and arguments', () => {
    // The script runs twice in one process: before the replacement, without the variable, and after it.
    const [before, after, ...more] = run({ MALLOC_MMAP_THRESHOLD_: undefined });
    expect(more).toEqual([]);
    expect(before).toEqual({ pid: before!.pid, threshold: null, args: ['first', 'second'] });
    expect(after).toEqual({ pid: before!.pid, threshold: String(1024 * 1024), args: ['first', 'second'] });
  });

  it("keeps an operator's value and does not replace the process", () => {
    const lines = run({ MALLOC_MMAP_THRESHOLD_: '262144' });
    expect(lines).toEqual([{ pid: lines[0]!.pid, threshold: '262144', args: ['first', 'second'] }]);
  });
});
