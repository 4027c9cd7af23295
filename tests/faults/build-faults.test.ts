/**
 * `db:build` (the real CLI, scripts/db-build.ts) killed with SIGKILL at random
 * points of a build over the live snapshot, and run on a full disk (a small
 * tmpfs holding the live snapshot): the live snapshot stays byte-identical and
 * still verifies every time. A killed build cannot remove its temporary file
 * (FILE.tmp-<pid>, beside the live one); a build that fails on a full disk does.
 * Needs root for the tmpfs mount (CI runs as root).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { verifySnapshotFile } from '../../src/snapshot/snapshot-file.ts';
import { mulberry32 } from '../http/hostile.ts';
import { generate, ROOT, runScript, sha256File, workspace } from '../resilience/fixture.ts';
import { recordFigures } from './fixture.ts';

const KILLS = 6;
let ws = '';
let dsOld = '';
let dsNew = '';
let live = '';

beforeAll(async () => {
  ws = workspace('faults-build');
  dsOld = await generate(path.join(ws, 'old'), 300, 31);
  dsNew = await generate(path.join(ws, 'new'), 3000, 32);
  live = path.join(ws, 'live', 'directory.db');
  fs.mkdirSync(path.dirname(live));
  await buildSnapshot({ inputDir: dsOld, outFile: live });
});

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

const tempFileIn = (dir: string) => fs.readdirSync(dir).some((f) => f.includes('.tmp-'));

/**
 * Runs db:build over `out`; with `killAfterMs`, SIGKILLs it that long after its
 * temporary file appeared (the build is writing). Resolves with the exit signal
 * and how long the writing lasted.
 */
function build(out: string, killAfterMs?: number): Promise<{ signal: NodeJS.Signals | null; code: number | null; writingMs: number }> {
  const child = spawn(process.execPath, ['scripts/db-build.ts', '--input', dsNew, '--out', out], { cwd: ROOT, stdio: 'ignore' });
  let writingSince = 0;
  const poll = setInterval(() => {
    if (writingSince || !tempFileIn(path.dirname(out))) return;
    writingSince = performance.now();
    if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  }, 5);
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearInterval(poll);
      resolve({ signal, code, writingMs: writingSince ? performance.now() - writingSince : 0 });
    }),
  );
}

it(`keeps the live snapshot byte-identical when db:build is killed at ${KILLS} random points`, async () => {
  const before = sha256File(live);
  // One full build elsewhere: how long a build spends writing its temporary file.
  const referenceDir = path.join(ws, 'reference');
  fs.mkdirSync(referenceDir);
  const full = await build(path.join(referenceDir, 'directory.db'));
  expect(full.code).toBe(0);
  expect(full.writingMs).toBeGreaterThan(0);

  const rand = mulberry32(99);
  const original = `${live}.original`;
  fs.copyFileSync(live, original);
  const points: number[] = [];
  // A build that runs faster than the reference can finish before its kill point: then the
  // point did not test anything; the live file is put back and the next points come earlier.
  let scale = 0.75;
  let finishedFirst = 0;
  while (points.length < KILLS && finishedFirst < 10) {
    const ms = Math.round(full.writingMs * rand() * scale);
    if ((await build(live, ms)).signal !== 'SIGKILL') {
      finishedFirst++;
      scale /= 2;
      fs.copyFileSync(original, `${live}.restore`);
      fs.renameSync(`${live}.restore`, live);
      continue;
    }
    points.push(ms);
    expect(sha256File(live), `killed ${ms} ms into writing`).toBe(before);
    expect(verifySnapshotFile(live)).toEqual({ ok: true });
    const left = fs.readdirSync(path.dirname(live)).filter((f) => f.includes('.tmp-'));
    // A killed process cannot clean up (its file and SQLite's journal stay); nothing else reads them.
    expect(left.length).toBeGreaterThan(0);
    for (const f of left) fs.rmSync(path.join(path.dirname(live), f));
  }
  expect(points.length).toBe(KILLS);
  fs.rmSync(original);
  recordFigures('db:build killed (SIGKILL) at random points', { kills: points.length, writingMs: Math.round(full.writingMs), killedMsIntoWriting: points, finishedBeforeTheirKillPoint: finishedFirst, liveUnchanged: true });
});

it('keeps the live snapshot byte-identical and removes its temporary file when the disk fills up', async () => {
  const disk = path.join(ws, 'small-disk');
  fs.mkdirSync(disk);
  const size = fs.statSync(live).size;
  // Room for the live snapshot and a quarter more: the new build's temporary file cannot fit.
  const kb = Math.ceil((size * 1.25) / 1024);
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', disk], { encoding: 'utf8' });
  if (mount.status !== 0) throw new Error(`this test mounts a small tmpfs and needs root: ${mount.stderr}`);
  try {
    const onDisk = path.join(disk, 'directory.db');
    fs.copyFileSync(live, onDisk);
    const before = sha256File(onDisk);
    const r = await runScript('db-build', ['--input', dsNew, '--out', onDisk], {});
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/ENOSPC|no space|full/i);
    expect(sha256File(onDisk)).toBe(before);
    expect(verifySnapshotFile(onDisk)).toEqual({ ok: true });
    expect(fs.readdirSync(disk)).toEqual(['directory.db']);
    recordFigures('db:build on a full disk (tmpfs)', { diskKb: kb, liveBytes: size, exitCode: r.code, liveUnchanged: true, tempFileRemoved: true });
  } finally {
    spawnSync('umount', [disk]);
  }
});
