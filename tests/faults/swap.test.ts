/**
 * Hot swap under 50 connections of long-tail search: `db:build` (the real CLI)
 * writes a new snapshot over the live one while 50 keep-alive clients search,
 * then a truncated file and a file of random bytes are renamed into place.
 * No request fails or answers 5xx; every answer names the old or the new
 * snapshot in X-Snapshot-Id and its body is that snapshot's data (an edited
 * provider's tagline tells them apart), never a mix; once a connection has seen
 * the new snapshot it never sees the old one again; the bad files are refused,
 * the log says why, and the snapshot in service keeps answering.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { editDataset } from '../ops/dataset-edits.ts';
import { generate, healthId, runScript, startNode, waitFor, workspace, type Node } from '../resilience/fixture.ts';
import { answersPast, recordFigures, startLoad, summary, type Answer, type LoadRequest } from './fixture.ts';

const CONNECTIONS = 50;
const WORDS = ['website', 'toko', 'online', 'aplikasi', 'mobile', 'seo', 'desain', 'logo', 'cloud', 'data', 'jakarta', 'bandung', 'android', 'iklan', 'konten', 'keamanan'];

let ws = '';
let live = '';
let dsB = '';
let node: Node;
let edited = '';

beforeAll(async () => {
  ws = workspace('faults-swap');
  const dsA = await generate(path.join(ws, 'dsA'), 200, 21);
  dsB = path.join(ws, 'dsB');
  edited = editDataset(dsA, dsB, { update: 1, remove: 0, add: 0 }).updated[0]!;
  live = path.join(ws, 'live', 'directory.db');
  fs.mkdirSync(path.dirname(live));
  await buildSnapshot({ inputDir: dsA, outFile: live });
  node = await startNode({ DIRECTORY_DB: live, KEYS_DB: path.join(ws, 'keys.db'), LOG_LEVEL: 'warn', ASTRO_SERVER_ENTRY: path.join(ws, 'none.mjs') });
});

afterAll(async () => {
  await node?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

/** Long-tail search (every query distinct, so no answer comes from the cache), plus the edited provider's detail. */
function request(worker: number, n: number): LoadRequest {
  if (n % 5 === 0) return { path: `/api/v1/providers/${edited}` };
  const a = WORDS[(worker * 7 + n) % WORDS.length]!;
  const b = WORDS[(n * 3 + worker) % WORDS.length]!;
  return { path: `/api/v1/search?q=${a}+${b}&limit=${1 + ((worker * 31 + n) % 50)}&page=${1 + (n % 3)}` };
}

it('swaps under 50 connections without a failed request, each answer from one snapshot', async () => {
  const idA = await healthId(node.url);
  const seenBy = new Map<number, string>();
  let mixed = 0;
  let backwards = 0;
  let detail = 0;
  const check = (a: Answer) => {
    if (a.status !== 200) return;
    const id = a.snapshotId!;
    if (seenBy.get(a.worker) !== undefined && seenBy.get(a.worker) !== idA && id === idA) backwards++;
    seenBy.set(a.worker, id);
    if (a.request.path.startsWith('/api/v1/providers/')) {
      detail++;
      const isNew = a.body.includes('(diperbarui)');
      if (isNew !== (id !== idA)) mixed++;
    }
  };
  const ids: Record<string, number> = {};
  const load = startLoad(node.url, CONNECTIONS, request, (a) => {
    ids[a.snapshotId ?? 'none'] = (ids[a.snapshotId ?? 'none'] ?? 0) + 1;
    check(a);
  });
  await answersPast(load, 500);
  const build = await runScript('db-build', ['--input', dsB, '--out', live], {});
  expect(build.code, build.stderr).toBe(0);
  const idB = await waitFor('the swap', async () => {
    const id = await healthId(node.url);
    return id !== idA ? id : undefined;
  });
  await answersPast(load, 1000);
  const figures = await load.stop();

  expect(figures.failures, figures.errorSamples.join('\n')).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  expect(Object.keys(ids).sort()).toEqual([idA, idB].sort());
  expect({ mixed, backwards }).toEqual({ mixed: 0, backwards: 0 });
  expect(detail).toBeGreaterThan(100);
  recordFigures('hot swap under 50 connections', { ...summary(figures), answersOld: ids[idA], answersNew: ids[idB], mixed, backwards });
});

it('refuses a truncated file and a file of random bytes renamed into place, saying why, and keeps serving', async () => {
  const serving = await healthId(node.url);
  const load = startLoad(node.url, CONNECTIONS, request);
  await answersPast(load, 300);
  const bytes = fs.readFileSync(live);
  const bad: [string, Buffer][] = [
    ['truncated', bytes.subarray(0, Math.floor(bytes.length / 3))],
    ['random bytes', crypto.randomBytes(256 * 1024)],
  ];
  for (const [, content] of bad) {
    const refusals = node.logs().filter((l) => l.msg === 'snapshot refused; still serving the previous one').length;
    const tmp = `${live}.incoming`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, live);
    const line = await waitFor('the refusal in the log', async () => node.logs().filter((l) => l.msg === 'snapshot refused; still serving the previous one')[refusals]);
    expect(line).toMatchObject({ servingId: serving, reason: expect.stringMatching(/.{10,}/) });
    await answersPast(load, 300);
  }
  const figures = await load.stop();
  expect(figures.failures, figures.errorSamples.join('\n')).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  expect(await healthId(node.url)).toBe(serving);
  recordFigures('corrupt snapshot renamed into place under 50 connections', summary(figures));
});
