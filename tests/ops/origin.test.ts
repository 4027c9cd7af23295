/**
 * The release origin, its two sides with real parts: release folders holding real
 * snapshots (built by the builder) published into an origin folder, served over
 * HTTP, and a node's follower installing from it: each content once on the origin,
 * current.json last; the snapshot resumed after a cut connection; unchanged files
 * hard-linked from the node's previous release, only new contents fetched; a 304
 * when nothing changed; a tampered, truncated or path-escaping release refused
 * with the live one untouched; an origin that is gone changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OriginFollower } from '../../src/ops/origin-follow.ts';
import { blobOnOrigin, MANIFEST, ReleaseFilesSchema, type OriginManifest } from '../../src/ops/origin-layout.ts';
import { publishRelease, readCurrent } from '../../src/ops/origin-publish.ts';
import { writeHistory, type ReleasePaths } from '../../src/ops/releases.ts';
import { linkTree } from '../../src/ops/tree.ts';
import { snapshotVerifier } from '../../src/ops/verify.ts';
import { ReleaseStatus } from '../../src/server/release-status.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { editDataset } from './dataset-edits.ts';
import { generate, sha256File, treeHashes, workspace } from '../resilience/fixture.ts';
import { serveFolder, type StaticOrigin } from '../support/static-origin.ts';

let ws = '';
let originDir = '';
let origin: StaticOrigin;
let publisher: ReleasePaths;
let node: ReleasePaths;
let follower: OriginFollower;
let status: ReleaseStatus;
const logs: { msg: string; reason?: string }[] = [];
const logger = pino({ level: 'info' }, new Writable({ write: (line: Buffer, _e, done) => (logs.push(JSON.parse(String(line)) as { msg: string }), done()) }));

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true }); // never through a hard link
  fs.writeFileSync(file, text);
};
// STATIC_ROOT is the live release's site/; a node installs releases whole, so its base is the site.
const liveClient = () => fs.realpathSync(path.join(node.staticRoot, 'base'));
const originRequests = (prefix: string) => origin.requests.filter((r) => r.path.startsWith(prefix));

beforeAll(async () => {
  ws = workspace('origin');
  const dsA = await generate(path.join(ws, 'dsA'), 60, 31);
  editDataset(dsA, path.join(ws, 'dsB'), { update: 2, remove: 0, add: 0 });
  publisher = { releasesDir: path.join(ws, 'pub', 'releases'), liveSnapshot: path.join(ws, 'pub', 'directory.db'), staticRoot: path.join(ws, 'pub', 'current') };
  node = { releasesDir: path.join(ws, 'node', 'releases'), liveSnapshot: path.join(ws, 'node', 'directory.db'), staticRoot: path.join(ws, 'node', 'current') };
  // Two release folders as a rebuild leaves them: a snapshot, the site, the rebuild's own files.
  const a = path.join(publisher.releasesDir, 'rel-a');
  await buildSnapshot({ inputDir: dsA, outFile: path.join(a, 'snapshot.db') });
  write(path.join(a, 'client', 'index.html'), '<h1>A</h1>');
  write(path.join(a, 'client', 'provider', 'one.html'), 'one');
  write(path.join(a, 'client', 'provider', 'two.html'), 'two');
  write(path.join(a, 'client', '_astro', 'site.css'), 'body{}');
  write(path.join(a, 'release.json'), '{"id":"rel-a"}');
  const b = path.join(publisher.releasesDir, 'rel-b');
  await buildSnapshot({ inputDir: path.join(ws, 'dsB'), outFile: path.join(b, 'snapshot.db') });
  linkTree(path.join(a, 'client'), path.join(b, 'client'));
  write(path.join(b, 'client', 'index.html'), '<h1>B</h1>');
  write(path.join(b, 'client', 'provider', 'three.html'), 'three');
  fs.rmSync(path.join(b, 'client', 'provider', 'two.html'));
  write(path.join(b, 'release.json'), '{"id":"rel-b"}');
  originDir = path.join(ws, 'origin');
  fs.mkdirSync(originDir);
  origin = await serveFolder(originDir);
  status = new ReleaseStatus(origin.url);
  follower = new OriginFollower({
    originUrl: origin.url,
    pollMs: 1000,
    paths: node,
    keep: 3,
    verify: async (file) => snapshotVerifier(file),
    vouch: () => {},
    status,
    logger,
  });
});

afterAll(async () => {
  await origin?.close();
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('publishing', () => {
  it('writes each content once, the snapshot and the list of the other files, and current.json naming them', () => {
    writeHistory(publisher, ['rel-a']);
    const { manifest, copiedFiles } = publishRelease(publisher, 'rel-a', originDir);
    const a = path.join(publisher.releasesDir, 'rel-a');
    expect(manifest).toMatchObject({ format: 1, release: 'rel-a', previous: null, snapshot: { path: 'releases/rel-a/snapshot.db', size: fs.statSync(path.join(a, 'snapshot.db')).size, sha256: sha256File(path.join(a, 'snapshot.db')) } });
    expect(readCurrent(originDir)).toEqual(manifest);
    const list = ReleaseFilesSchema.parse(JSON.parse(fs.readFileSync(path.join(originDir, manifest.files.path), 'utf8')));
    expect(list.files.map(([p]) => p)).toEqual(['client/_astro/site.css', 'client/index.html', 'client/provider/one.html', 'client/provider/two.html', 'release.json']);
    for (const [p, sha] of list.files) expect(fs.readFileSync(path.join(originDir, blobOnOrigin(sha)))).toEqual(fs.readFileSync(path.join(a, p)));
    expect(copiedFiles).toBe(5);
    expect(fs.readdirSync(originDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a node following the origin', () => {
  it('installs the announced release, resuming the snapshot after a cut connection', async () => {
    origin.cutNext('/releases/rel-a/snapshot.db', 64 * 1024);
    await follower.poll();
    expect(sha256File(node.liveSnapshot)).toBe(sha256File(path.join(publisher.releasesDir, 'rel-a', 'snapshot.db')));
    expect(treeHashes(liveClient())).toEqual(treeHashes(path.join(publisher.releasesDir, 'rel-a', 'client')));
    expect(originRequests('/releases/rel-a/snapshot.db').map((r) => r.range)).toEqual([undefined, 'bytes=65536-']);
    expect(status.body()).toMatchObject({ serving: 'rel-a', announced: 'rel-a', behindSince: null, origin: { reachable: true, lastError: null }, refused: null });
  });

  it('asks with If-None-Match and fetches nothing while the origin announces the same release', async () => {
    const before = origin.requests.length;
    await follower.poll();
    expect(origin.requests.slice(before).map((r) => r.path)).toEqual([`/${MANIFEST}`]);
  });

  it('takes the next release whole, fetching only its new contents and linking the rest from the one it has', async () => {
    writeHistory(publisher, ['rel-a', 'rel-b']);
    const { manifest, copiedFiles } = publishRelease(publisher, 'rel-b', originDir);
    expect(manifest.previous).toBe('rel-a');
    expect(copiedFiles).toBe(3); // index.html, three.html, release.json
    const before = originRequests('/files/').length;
    await follower.poll();
    expect(originRequests('/files/').length - before).toBe(3);
    expect(treeHashes(liveClient())).toEqual(treeHashes(path.join(publisher.releasesDir, 'rel-b', 'client')));
    expect(sha256File(node.liveSnapshot)).toBe(manifest.snapshot.sha256);
    const inode = (release: string, p: string) => fs.statSync(path.join(node.releasesDir, release, 'client', p)).ino;
    expect(inode('rel-b', 'provider/one.html')).toBe(inode('rel-a', 'provider/one.html'));
    expect(logs.some((l) => l.msg === 'release installed')).toBe(true);
  });

  it('refuses a tampered snapshot, a truncated one and a file list that leaves the release folder, and keeps its release', async () => {
    const good = readCurrent(originDir)!;
    const liveBefore = sha256File(node.liveSnapshot);
    const snapshot = fs.readFileSync(path.join(originDir, good.snapshot.path));
    const tampered = Buffer.from(snapshot);
    tampered[Math.floor(tampered.length / 2)]! ^= 0xff;
    const bad: [string, (m: OriginManifest) => OriginManifest, RegExp][] = [
      ['rel-tampered', (m) => (write(path.join(originDir, 'releases/rel-tampered/snapshot.db'), ''), fs.writeFileSync(path.join(originDir, 'releases/rel-tampered/snapshot.db'), tampered), m), /SHA-256/],
      ['rel-truncated', (m) => (fs.mkdirSync(path.join(originDir, 'releases/rel-truncated'), { recursive: true }), fs.writeFileSync(path.join(originDir, 'releases/rel-truncated/snapshot.db'), snapshot.subarray(0, snapshot.length / 3)), m), /ends at \d+ bytes/],
      ['rel-escaping', (m) => ({ ...m, files: { ...m.files, path: '../../outside.json' } }), /files\.path/],
    ];
    for (const [release, make, reason] of bad) {
      const manifest = make({ ...good, release, previous: good.release, snapshot: { ...good.snapshot, path: `releases/${release}/snapshot.db` } });
      write(path.join(originDir, MANIFEST), JSON.stringify(manifest));
      await follower.poll();
      const body = status.body();
      if (release === 'rel-escaping') expect(body.origin.lastError).toMatch(reason);
      else expect(body.refused).toEqual({ release, reason: expect.stringMatching(reason) });
      expect(body).toMatchObject({ serving: 'rel-b', behindSince: expect.any(String) });
      expect(sha256File(node.liveSnapshot)).toBe(liveBefore);
      expect(fs.readdirSync(node.releasesDir).filter((n) => n.includes(release))).toEqual([]);
    }
    // A refused release is not fetched again while the origin announces it.
    const before = originRequests('/releases/rel-truncated/').length;
    write(path.join(originDir, MANIFEST), JSON.stringify({ ...good, release: 'rel-truncated', previous: good.release, snapshot: { ...good.snapshot, path: 'releases/rel-truncated/snapshot.db' } }));
    await follower.poll();
    expect(originRequests('/releases/rel-truncated/').length).toBe(before);
    write(path.join(originDir, MANIFEST), JSON.stringify(good));
    await follower.poll();
    expect(status.body()).toMatchObject({ serving: 'rel-b', announced: 'rel-b', behindSince: null });
  });

  it('keeps serving and says it is behind while the origin cannot be reached', async () => {
    const url = origin.url;
    await origin.close();
    await follower.poll();
    expect(status.body()).toMatchObject({ serving: 'rel-b', behindSince: expect.any(String), origin: { url, reachable: false, lastError: expect.any(String) } });
    expect(logs.filter((l) => l.msg.startsWith('release origin unreachable'))).toHaveLength(1);
    await follower.poll();
    expect(logs.filter((l) => l.msg.startsWith('release origin unreachable'))).toHaveLength(1); // once per outage
    expect(fs.existsSync(node.liveSnapshot)).toBe(true);
  });
});

describe('pruning the origin', () => {
  it('removes the releases the history no longer keeps, and the contents only they held', () => {
    writeHistory(publisher, ['rel-b']);
    publishRelease(publisher, 'rel-b', originDir);
    expect(fs.readdirSync(path.join(originDir, 'releases')).sort()).toEqual(['rel-b']);
    const list = ReleaseFilesSchema.parse(JSON.parse(fs.readFileSync(path.join(originDir, 'releases/rel-b/files.json'), 'utf8')));
    const held = new Set(list.files.map(([, sha]) => sha));
    const stored = fs.readdirSync(path.join(originDir, 'files')).flatMap((bucket) => fs.readdirSync(path.join(originDir, 'files', bucket)));
    expect(new Set(stored)).toEqual(held);
  });
});
