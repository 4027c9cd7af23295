/** The data:generate command line: arguments, exit codes, quiet output off a terminal. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'generate-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/data-generate.ts', ...args], { encoding: 'utf8', env: { ...process.env, CI: '1' } });

describe('npm run data:generate', () => {
  it('writes a dataset and prints one summary line, without progress, when not on a terminal', () => {
    const out = join(root, 'ok');
    const result = run('--providers', '12', '--seed', '3', '--out', out);
    expect(result.status).toBe(0);
    expect(existsSync(join(out, 'providers.ndjson'))).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('\r');
    expect(result.stderr).toMatch(/wrote 12 providers/);
  });

  it('fails with a usage message on a missing --out or a bad number', () => {
    const missing = run('--providers', '5');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/--out DIR is required/);
    const bad = run('--providers', 'many', '--out', join(root, 'bad'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--providers must be an integer/);
    expect(existsSync(join(root, 'bad'))).toBe(false);
  });
});
