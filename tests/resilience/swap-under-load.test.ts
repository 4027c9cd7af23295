/**
 * One running server under sustained concurrent load (autocannon, 10 connections)
 * on public and key-protected endpoints while an editor rebuilds, a truncated
 * snapshot is dropped in place, and the editor rolls back. Zero requests may fail
 * (5xx, connection error, timeout; a 429 past the key's budget is an answer),
 * every response carries X-Request-ID, and the logs never hold the API key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDataset } from '../ops/dataset-edits.ts';
import { createKey, deploymentEnv, generate, healthId, rebuildOk, runScript, startNode, waitFor, workspace, type Node } from './fixture.ts';
import { startLoad, type LoadRequest, type LoadTally } from './load.ts';

let ws = '';
let env: Record<string, string> = {};
let node: Node;
let key = '';
let edits: { updated: string[]; removed: string[]; added: string[] };
let idA = '';
let idB = '';

const liveReleaseId = () => {
  const active = (JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, 'history.json'), 'utf8')) as { active: string[] }).active;
  return active[active.length - 1]!;
};
const releaseSnapshotId = (id: string) =>
  (JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, id, 'release.json'), 'utf8')) as { snapshotId: string }).snapshotId;

function mixedLoad(slug: string): LoadRequest[] {
  const json = { 'content-type': 'application/json', 'x-api-key': key };
  return [
    { path: '/api/v1/providers?limit=5' },
    { path: `/provider/${slug}` },
    { path: `/api/v1/providers/${slug}` },
    { path: '/healthz' },
    { path: '/api/ai/recommend?q=jasa%20pembuatan%20website&limit=2', headers: { 'x-api-key': key } },
    { method: 'POST', path: '/mcp', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) },
    { path: '/api/v1/search?q=aplikasi%20mobile' },
    { path: '/sitemap.xml' },
  ];
}

function expectNoFailures(t: LoadTally): void {
  if (process.env.OPS_TEST_VERBOSE) console.log(JSON.stringify(t));
  expect({ serverErrors: t.serverErrors, errors: t.errors, timeouts: t.timeouts, samples: t.errorSamples }).toEqual({
    serverErrors: 0,
    errors: 0,
    timeouts: 0,
    samples: [],
  });
  expect(t.withoutRequestId).toBe(0);
  expect(t.responses).toBeGreaterThan(100);
}

async function loadWhile<T>(slug: string, during: () => Promise<T>): Promise<{ tally: LoadTally; value: T }> {
  const load = startLoad(node.url, mixedLoad(slug));
  try {
    await waitFor('load to start', async () => (load.seen() > 100 ? true : undefined));
    const value = await during();
    const after = load.seen();
    await waitFor('load after the change', async () => (load.seen() > after + 200 ? true : undefined));
    return { tally: await load.stop(), value };
  } catch (err) {
    await load.stop();
    throw err;
  }
}

beforeAll(async () => {
  ws = workspace('swap');
  const dsA = await generate(path.join(ws, 'dsA'), 150, 11);
  edits = editDataset(dsA, path.join(ws, 'dsB'), { update: 3, remove: 1, add: 1 });
  env = deploymentEnv(ws);
  await rebuildOk(dsA, env);
  idA = releaseSnapshotId(liveReleaseId());
  key = createKey(env, 'regular');
  const serverEntry = path.join(fs.realpathSync(env.STATIC_ROOT!), '..', 'server', 'entry.mjs');
  node = await startNode({ ...env, ASTRO_SERVER_ENTRY: serverEntry });
});

afterAll(async () => {
  await node?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('hot swap under load', () => {
  it('serves the rebuilt snapshot and site without a restart and without a failed request', async () => {
    const slug = edits.updated[0]!;
    expect(await healthId(node.url)).toBe(idA);
    const before = await (await fetch(`${node.url}/provider/${slug}`)).text();
    expect(before).not.toContain('(diperbarui)');

    const { tally } = await loadWhile(slug, async () => {
      await rebuildOk(path.join(ws, 'dsB'), env);
      idB = releaseSnapshotId(liveReleaseId());
      await waitFor('healthz to report the new snapshot', async () => ((await healthId(node.url)) === idB ? true : undefined));
    });
    expectNoFailures(tally);
    expect(tally.byStatus[200]).toBeGreaterThan(0);
    expect(idB).not.toBe(idA);

    const page = await fetch(`${node.url}/provider/${slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('(diperbarui)');
    const api = await fetch(`${node.url}/api/v1/providers/${slug}`);
    expect(api.headers.get('x-snapshot-id')).toBe(idB);
    expect(JSON.stringify(await api.json())).toContain('(diperbarui)');
    expect((await fetch(`${node.url}/provider/${edits.added[0]}`)).status).toBe(200);
    expect((await fetch(`${node.url}/provider/${edits.removed[0]}`)).status).toBe(404);

    const health = (await (await fetch(`${node.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', snapshot: { id: idB, verified: true, builtAt: expect.any(String), counts: { published: expect.any(Number) } } });
    expect(health.uptimeSeconds).toEqual(expect.any(Number));
  });

  it('refuses a truncated snapshot dropped in place and keeps serving the current one', async () => {
    const live = env.DIRECTORY_DB!;
    const bytes = fs.readFileSync(live);
    const truncated = path.join(path.dirname(live), 'truncated.tmp');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const { tally } = await loadWhile(edits.updated[0]!, async () => {
      fs.renameSync(truncated, live);
      await waitFor('the refusal in the logs', async () => (/refused/.test(node.output()) ? true : undefined));
    });
    expectNoFailures(tally);
    expect(await healthId(node.url)).toBe(idB);
    const r = await fetch(`${node.url}/api/v1/providers?limit=1`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-snapshot-id')).toBe(idB);
    expect(node.logs().some((l) => l.msg === 'snapshot refused; still serving the previous one' && l.servingId === idB)).toBe(true);
  });

  it('rolls back to the previous snapshot and site', async () => {
    const slug = edits.updated[0]!;
    const r = await runScript('rollback', [], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`snapshot ${idA}`);
    await waitFor('healthz to report the previous snapshot', async () => ((await healthId(node.url)) === idA ? true : undefined));
    expect(await (await fetch(`${node.url}/provider/${slug}`)).text()).not.toContain('(diperbarui)');
    expect((await fetch(`${node.url}/provider/${edits.removed[0]}`)).status).toBe(200);
    expect((await fetch(`${node.url}/provider/${edits.added[0]}`)).status).toBe(404);
    const api = await fetch(`${node.url}/api/v1/providers/${slug}`);
    expect(api.headers.get('x-snapshot-id')).toBe(idA);
  });

  it('logs every request with id, route, status and latency, and never the API key', async () => {
    const r = await fetch(`${node.url}/api/ai/recommend?q=website`, { headers: { 'x-api-key': key, 'x-request-id': 'ops-test-req-1' } });
    expect(r.headers.get('x-request-id')).toBe('ops-test-req-1');
    await r.arrayBuffer();
    const bearer = await fetch(`${node.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(bearer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await bearer.arrayBuffer();
    const line = await waitFor('the request log line', async () =>
      node.logs().find((l) => l.msg === 'request' && l.requestId === 'ops-test-req-1'),
    );
    expect(line).toMatchObject({ method: 'GET', route: '/api/ai/recommend', status: expect.any(Number), ms: expect.any(Number) });
    const output = node.output();
    expect(output.length).toBeGreaterThan(1000);
    expect(output).not.toContain(key);
    expect(output).not.toContain(key.slice(-20));
  });
});
