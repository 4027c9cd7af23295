/**
 * Editors who publish at the same time wait for each other instead of being refused
 * (src/ops/release-lock.ts): two `npm run rebuild` started together both succeed, the
 * second says whom it queued behind, and the history holds both releases in the order
 * they ran; a rollback started during a rebuild waits too and then rolls that rebuild
 * back; a dead holder's lock is taken over. Real CLI processes on a generated dataset.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDataset } from './dataset-edits.ts';
import { deploymentEnv, generate, rebuildOk, runScript, workspace } from '../resilience/fixture.ts';

let ws = '';
let env: Record<string, string> = {};
let dsA = '';
let dsB = '';
let dsC = '';
// A bound for a test of one or two real rebuilds on a shared 2-core machine (not a timed assertion).
const REBUILDS = 400_000;

const history = () => (JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, 'history.json'), 'utf8')) as { active: string[] }).active;
const releaseJson = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, id, 'release.json'), 'utf8')) as {
    input: string;
    steps: { name: string; ms: number }[];
    totalMs: number;
    peakRssMb: number;
    renderPeakRssMb: number | null;
  };
const lockFile = () => path.join(env.RELEASES_DIR!, '.lock');

async function untilLocked(): Promise<void> {
  while (!fs.existsSync(lockFile())) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  ws = workspace('publish-queue');
  dsA = await generate(path.join(ws, 'dsA'), 120, 7);
  editDataset(dsA, (dsB = path.join(ws, 'dsB')), { update: 2, remove: 0, add: 1 });
  editDataset(dsB, (dsC = path.join(ws, 'dsC')), { update: 1, remove: 1, add: 0 });
  env = deploymentEnv(ws);
  await rebuildOk(dsA, env);
});

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('publishing while another publish runs', () => {
  it('queues a second rebuild started at the same time; both go live, in the order they ran', async () => {
    const before = history();
    const [b, c] = await Promise.all([runScript('rebuild', ['--input', dsB], env), runScript('rebuild', ['--input', dsC], env)]);
    expect(b.code, b.stderr).toBe(0);
    expect(c.code, c.stderr).toBe(0);
    const queued = [b, c].filter((r) => r.stderr.includes('queued behind pid'));
    expect(queued).toHaveLength(1);
    const [second, secondInput, firstInput] = queued[0] === b ? [b, dsB, dsC] : [c, dsC, dsB];
    expect(second.stderr).toMatch(new RegExp(`queued behind pid \\d+ \\(started \\d\\d:\\d\\d:\\d\\d: rebuild --input ${firstInput.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
    expect(second.stderr).not.toContain('another rebuild or rollback is running');

    const after = history();
    expect(after.at(-3)).toBe(before.at(-1));
    const [firstId, secondId] = after.slice(-2) as [string, string];
    expect(releaseJson(firstId).input).toBe(path.resolve(firstInput));
    expect(releaseJson(secondId).input).toBe(path.resolve(secondInput));
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(fs.readdirSync(path.join(env.RELEASES_DIR!, '.queue'))).toEqual([]);
  }, REBUILDS);

  it('records each step with its time in release.json and ends the summary with the step line', async () => {
    // --full: an astro build child renders, whose peak is reported beside the rebuild's own
    const r = await rebuildOk(dsA, env, ['--full']);
    const info = releaseJson(history().at(-1)!);
    expect(info.steps.map((s) => s.name)).toEqual(['queue', 'snapshot', 'diff', 'render', 'urls', 'verify', 'switch', 'prune', 'spare']);
    for (const s of info.steps) expect(s.ms).toBeGreaterThanOrEqual(0);
    expect(info.totalMs).toBeGreaterThanOrEqual(info.steps.reduce((n, s) => n + s.ms, 0));
    expect(info.peakRssMb).toBeGreaterThan(20);
    expect(info.renderPeakRssMb).toBeGreaterThan(20);
    const last = r.stdout.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^steps: queue [\d.]+s \| snapshot [\d.]+s \| diff [\d.]+s \| render [\d.]+s \| urls [\d.]+s \| verify [\d.]+s \| switch [\d.]+s \| prune [\d.]+s \| spare [\d.]+s \| total [\d.]+s \| peak RSS \d+ MB, render child \d+ MB$/);
    expect(r.stderr).toMatch(/rebuild: validate \+ snapshot: [\d.]+s/);
    expect(r.stderr).toMatch(/rebuild: render: [\d.]+s/);
  }, REBUILDS);

  it('queues a rollback started while a rebuild runs, then rolls that rebuild back', async () => {
    const before = history();
    const rebuilding = runScript('rebuild', ['--input', dsB], env);
    await untilLocked();
    const rb = await runScript('rollback', [], env);
    const r = await rebuilding;
    expect(r.code, r.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(rb.stderr).toMatch(/rollback: queued behind pid \d+ \(started \d\d:\d\d:\d\d: rebuild --input /);
    const built = /release (\S+) is live/.exec(r.stdout)![1]!;
    expect(rb.stdout).toContain(`rolled back from ${built} to ${before.at(-1)}`);
    expect(history().at(-1)).toBe(before.at(-1));
  }, REBUILDS);

  it('takes over the lock of a holder that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: deadPid, task: 'rebuild --input gone', since: new Date().toISOString() }));
    fs.writeFileSync(path.join(env.RELEASES_DIR!, '.queue', `000000000000001-${deadPid}`), 'rebuild --input gone');
    const before = history();
    const r = await runScript('rollback', [], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('queued behind');
    expect(history()).toEqual(before.slice(0, -1));
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(fs.readdirSync(path.join(env.RELEASES_DIR!, '.queue'))).toEqual([]);
  });
});
