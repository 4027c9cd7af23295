/**
 * Many nodes, the whole of it with real parts: an editor's machine running the
 * real `npm run rebuild` / `npm run rollback` with RELEASE_ORIGIN_DIR; the origin,
 * a real nginx serving that folder with docs/nginx-origin.conf; three nodes
 * (scripts/serve.ts) following it (RELEASE_ORIGIN), behind a real nginx running
 * docs/nginx-lb.conf; one redis-server for keys and rate limits. 50 keep-alive
 * connections send long-tail searches (every query distinct) and an edited
 * provider's page through the balancer for the whole test, and every answer is
 * checked: 0 failed, 0 5xx, and none mixing two releases (the edited provider's
 * body always matches the X-Snapshot-Id it came with).
 *
 * In turn: a release published mid-load is served by all three within two poll
 * intervals; a node started after the publish serves it from its first answer;
 * with the origin stopped the nodes keep serving and say they are behind, and a
 * rollback published meanwhile reaches them when the origin is back; a tampered
 * and a truncated snapshot on the origin are refused by every node; a key created
 * on one machine works at once on all three, a revoked one stops at once, and the
 * three share its rate limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildLongTailMix, longTailPath } from '../../bench/long-tail-queries.ts';
import { MANIFEST, type OriginManifest } from '../../src/ops/origin-layout.ts';
import type { ReleaseStatusBody } from '../../src/server/release-status.ts';
import { editDataset } from '../ops/dataset-edits.ts';
import { createKey, deploymentEnv, freePort, generate, rebuildOk, ROOT, runScript, startNginx, startNode, startRedis, waitFor, workspace, type Node, type Service } from '../resilience/fixture.ts';
import { recordFigures, startLoad, summary, type Answer, type LoadRequest, type RunningLoad } from './fixture.ts';

const CONNECTIONS = 50;
// The bound is two poll intervals from the manifest's rename to every node serving it;
// a node's install (download, check, warm-up) under 50 connections took 1.3-4.4 s on a quiet
// machine and up to 6.7 s beside other jobs, so the interval is long enough for that to fit.
const POLL_MS = 5_000;
// One rate-limit window for the whole test: the minute never turns mid-count.
const CLOCK = String(Date.UTC(2026, 0, 1, 9, 30, 5));

let ws = '';
let editor: Record<string, string> = {};
let originDir = '';
let originPort = 0;
let origin: Service | undefined;
let lb: Service;
let redis: Service;
let nodes: Node[] = [];
let load: RunningLoad;
let edited = '';
let dsB = '';
const seenIds = new Map<string, number>();
let mixed = 0;
let detailAnswers = 0;

interface Health {
  snapshot: { id: string };
  release: ReleaseStatusBody;
}
const health = async (node: Node): Promise<Health> => (await (await fetch(`${node.url}/healthz`)).json()) as Health;
const manifest = () => JSON.parse(fs.readFileSync(path.join(originDir, MANIFEST), 'utf8')) as OriginManifest;

function originConfig(): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/nginx-origin.conf'), 'utf8');
  const conf = doc.replace('listen 8080;', 'listen __LISTEN__;').replace('root /srv/directory-origin;', `root ${originDir};`);
  expect(conf).toContain(`root ${originDir};`);
  return conf;
}

/** docs/nginx-lb.conf over the three nodes, without its per-client limit (all load here comes from one address). */
function balancerConfig(ports: number[]): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/nginx-lb.conf'), 'utf8');
  const servers = ports.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n    ');
  const conf = doc
    .replace(/limit_req zone=directory_public [^;]+;/, '')
    .replace(/server 127\.0\.0\.1:4321 [^;]+;\s*server 127\.0\.0\.1:4322 [^;]+;/, servers)
    .replace('listen 80;', 'listen __LISTEN__;');
  expect(conf).toContain(servers);
  return conf;
}

function nodeEnv(name: string, port: number): Record<string, string> {
  const dir = path.join(ws, name);
  return {
    PORT: String(port),
    DIRECTORY_DB: path.join(dir, 'live', 'directory.db'),
    STATIC_ROOT: path.join(dir, 'live', 'current'),
    RELEASES_DIR: path.join(dir, 'releases'),
    KEYS_DB: path.join(dir, 'keys.db'),
    RELEASE_ORIGIN: `http://127.0.0.1:${originPort}`,
    RELEASE_POLL_INTERVAL_MS: String(POLL_MS),
    REDIS_URL: redis.url,
    RATE_LIMIT_CLOCK_MS: CLOCK,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
  };
}

/** Until every node serves `snapshotId`: how long each took from `since` to install the release, and to serve its snapshot. */
async function converged(snapshotId: string, since: number, of = nodes): Promise<{ installedMs: number[]; servedMs: number[] }> {
  const each = await Promise.all(
    of.map(async (node) => {
      let installedMs: number | undefined;
      const servedMs = await waitFor(
        `${node.url} to serve ${snapshotId}`,
        async () => {
          const h = await health(node);
          if (installedMs === undefined && h.release.serving === manifest().release) installedMs = Date.now() - since;
          return h.snapshot.id === snapshotId ? Date.now() - since : undefined;
        },
        60_000,
      );
      return { installedMs: installedMs ?? servedMs, servedMs };
    }),
  );
  return { installedMs: each.map((e) => e.installedMs), servedMs: each.map((e) => e.servedMs) };
}

function checkAnswer(a: Answer): void {
  if (a.status !== 200) return;
  seenIds.set(a.snapshotId ?? 'none', (seenIds.get(a.snapshotId ?? 'none') ?? 0) + 1);
  if (!a.request.path.startsWith('/api/v1/providers/')) return;
  detailAnswers++;
  const idB = releaseSnapshotIds.get('B');
  if (a.body.includes('(diperbarui)') !== (a.snapshotId === idB)) mixed++;
}
const releaseSnapshotIds = new Map<string, string>();

beforeAll(async () => {
  ws = workspace('faults-nodes');
  const dsA = await generate(path.join(ws, 'dsA'), 200, 41);
  dsB = path.join(ws, 'dsB');
  edited = editDataset(dsA, dsB, { update: 1, remove: 0, add: 0 }).updated[0]!;
  originDir = path.join(ws, 'origin');
  fs.mkdirSync(originDir);
  editor = deploymentEnv(path.join(ws, 'editor'), { RELEASE_ORIGIN_DIR: originDir });
  const first = await rebuildOk(dsA, editor);
  expect(first.stdout).toMatch(/origin: .* now announces/);
  releaseSnapshotIds.set('A', manifest().snapshot.id);

  originPort = await freePort();
  fs.mkdirSync(path.join(ws, 'nginx-origin'));
  origin = await startNginx(path.join(ws, 'nginx-origin'), originConfig(), `/${MANIFEST}`, originPort);
  redis = await startRedis();
  const ports = [await freePort(), await freePort(), await freePort()];
  nodes = await Promise.all(ports.map((port, i) => startNode(nodeEnv(`node${i + 1}`, port))));
  fs.mkdirSync(path.join(ws, 'nginx-lb'));
  lb = await startNginx(path.join(ws, 'nginx-lb'), balancerConfig(ports), '/healthz');

  const paths = buildLongTailMix(path.join(ws, 'editor', 'live', 'directory.db'), 20_000, 41).map(longTailPath);
  let next = 0;
  const request = (_worker: number, n: number): LoadRequest =>
    n % 5 === 0 ? { path: `/api/v1/providers/${edited}` } : { path: paths[next++ % paths.length]! };
  load = startLoad(lb.url, CONNECTIONS, request, checkAnswer);
}, 600_000);

afterAll(async () => {
  await load?.stop().catch(() => undefined);
  await lb?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await origin?.stop();
  await redis?.stop();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('serves a release published mid-load on all three nodes within two poll intervals', async () => {
  for (const node of nodes) expect((await health(node)).release).toMatchObject({ serving: manifest().release, behindSince: null });
  const before = load.answered();
  await rebuildOk(dsB, editor);
  const published = fs.statSync(path.join(originDir, MANIFEST)).mtimeMs;
  releaseSnapshotIds.set('B', manifest().snapshot.id);
  const ms = await converged(manifest().snapshot.id, published);
  recordFigures('many nodes: a release published under 50 connections', {
    ...ms,
    pollMs: POLL_MS,
    answeredDuringRebuildAndSwap: load.answered() - before,
  });
  for (const t of ms.servedMs) expect(t).toBeLessThanOrEqual(2 * POLL_MS);
  for (const node of nodes) expect((await health(node)).release).toMatchObject({ serving: manifest().release, announced: manifest().release, behindSince: null });
}, 300_000);

it('a node started after the publish serves the new release from its first answer', async () => {
  const late = await startNode({ ...nodeEnv('late-node', await freePort()), LOG_LEVEL: 'info' });
  try {
    const first = await health(late);
    expect(first.snapshot.id).toBe(releaseSnapshotIds.get('B'));
    expect(first.release).toMatchObject({ serving: manifest().release, announced: manifest().release, behindSince: null });
    const lines = late.output();
    expect(lines.indexOf('release installed')).toBeGreaterThan(-1);
    expect(lines.indexOf('release installed')).toBeLessThan(lines.indexOf('listening on'));
  } finally {
    await late.stop();
  }
}, 120_000);

it('keeps serving with the origin stopped, says it is behind, and takes the rollback published meanwhile once the origin is back', async () => {
  const serving = manifest().release;
  await origin!.stop();
  origin = undefined;
  const stoppedAt = Date.now();
  for (const node of nodes) {
    const h = await waitFor('the node to miss the origin', async () => {
      const body = await health(node);
      return body.release.origin.reachable ? undefined : body;
    });
    expect(h.release).toMatchObject({ serving, behindSince: expect.any(String), origin: { reachable: false, lastError: expect.any(String) } });
    expect(Date.parse(h.release.behindSince!)).toBeGreaterThanOrEqual(stoppedAt - 1000);
  }
  const rolled = await runScript('rollback', [], editor);
  expect(rolled.code, rolled.stderr).toBe(0);
  expect(rolled.stdout).toMatch(/origin: .* now announces/);
  expect(manifest().snapshot.id).toBe(releaseSnapshotIds.get('A'));
  await new Promise((r) => setTimeout(r, 2 * POLL_MS));
  for (const node of nodes) expect((await health(node)).snapshot.id).toBe(releaseSnapshotIds.get('B'));

  origin = await startNginx(path.join(ws, 'nginx-origin'), originConfig(), `/${MANIFEST}`, originPort);
  const back = Date.now();
  const ms = await converged(releaseSnapshotIds.get('A')!, back);
  for (const node of nodes) expect((await health(node)).release).toMatchObject({ serving: manifest().release, behindSince: null, origin: { reachable: true } });
  recordFigures('many nodes: origin stopped, a rollback published meanwhile', { ...ms, pollMs: POLL_MS });
}, 180_000);

it('refuses a tampered and a truncated snapshot on the origin on every node, which keep the last good release', async () => {
  const good = manifest();
  const snapshot = fs.readFileSync(path.join(originDir, good.snapshot.path));
  const tampered = Buffer.from(snapshot);
  tampered[Math.floor(tampered.length / 2)]! ^= 0xff;
  const cases: [string, Buffer, RegExp][] = [
    [`${good.release}-tampered`, tampered, /SHA-256/],
    [`${good.release}-truncated`, snapshot.subarray(0, Math.floor(snapshot.length / 3)), /ends at \d+ bytes/],
  ];
  for (const [release, bytes, reason] of cases) {
    const dir = path.join(originDir, 'releases', release);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'snapshot.db'), bytes);
    const bad: OriginManifest = { ...good, release, previous: good.release, publishedAt: new Date().toISOString(), snapshot: { ...good.snapshot, path: `releases/${release}/snapshot.db` } };
    fs.writeFileSync(path.join(originDir, `${MANIFEST}.tmp`), JSON.stringify(bad));
    fs.renameSync(path.join(originDir, `${MANIFEST}.tmp`), path.join(originDir, MANIFEST));
    for (const node of nodes) {
      const h = await waitFor(`${node.url} to refuse ${release}`, async () => {
        const body = await health(node);
        return body.release.refused?.release === release ? body : undefined;
      });
      expect(h.release.refused!.reason).toMatch(reason);
      expect(h.release).toMatchObject({ serving: good.release, announced: release, behindSince: expect.any(String) });
      expect(h.snapshot.id).toBe(good.snapshot.id);
    }
  }
  fs.writeFileSync(path.join(originDir, `${MANIFEST}.tmp`), JSON.stringify(good));
  fs.renameSync(path.join(originDir, `${MANIFEST}.tmp`), path.join(originDir, MANIFEST));
  for (const node of nodes) await waitFor('the node to be current again', async () => ((await health(node)).release.behindSince === null ? true : undefined));
}, 120_000);

it('honours a key created or revoked on one machine on all three at their next request, and shares its rate limit', async () => {
  const keyed = (node: Node, key: string) => fetch(`${node.url}/api/ai/recommend?q=website&limit=1`, { headers: { 'x-api-key': key } });
  const key = createKey({ ...editor, REDIS_URL: redis.url }, 'regular');
  const remaining: string[] = [];
  for (let i = 0; i < 30; i++) {
    const r = await keyed(nodes[i % 3]!, key);
    expect(r.status).toBe(200);
    remaining.push(r.headers.get('x-ratelimit-remaining')!);
    await r.arrayBuffer();
  }
  expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
  for (const node of nodes) expect((await keyed(node, key)).status).toBe(429);

  const other = createKey({ ...editor, REDIS_URL: redis.url }, 'enterprise');
  for (const node of nodes) expect((await keyed(node, other)).status).toBe(200);
  const revoked = await runScript('keys', ['revoke', other.slice(0, 17)], { ...editor, REDIS_URL: redis.url });
  expect(revoked.code, revoked.stderr).toBe(0);
  for (const node of nodes) expect((await keyed(node, other)).status).toBe(401);
});

it('answered every request of the whole test, none failed and none mixed two releases', async () => {
  const figures = await load.stop();
  expect(figures.failures, figures.errorSamples.join('\n')).toBe(0);
  expect(figures.serverErrors).toBe(0);
  expect(figures.byStatus[200]).toBe(figures.answered);
  expect(mixed).toBe(0);
  expect(detailAnswers).toBeGreaterThan(100);
  const [idA, idB] = [releaseSnapshotIds.get('A')!, releaseSnapshotIds.get('B')!];
  expect([...seenIds.keys()].sort()).toEqual([idA, idB].sort());
  recordFigures('many nodes: the whole test under 50 connections', { ...summary(figures), answersA: seenIds.get(idA), answersB: seenIds.get(idB), mixed });
});
