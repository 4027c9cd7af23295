/**
 * Layered sites with real files: a full release, two releases layered on it (a
 * page changed, one removed, one added back), read the same way by the node's
 * StaticFiles, by a real nginx with docs/nginx-static.conf and by the export
 * (npm run release:export) and the origin's publish; the changed URLs from the rendered set; prune keeping
 * the base a kept release needs; a fold into a new base; a release folder of the
 * layout before layered sites activated as any other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedUrlPaths } from '../../src/ops/changed-urls.ts';
import { blobOnOrigin, ReleaseFilesSchema } from '../../src/ops/origin-layout.ts';
import { publishRelease } from '../../src/ops/origin-publish.ts';
import { activate, prune, writeHistory, type ReleasePaths } from '../../src/ops/releases.ts';
import { baseReleaseOf, compactSite, ensureSite, exportSite, layerSite, makeFullSite, siteOf, type Layered } from '../../src/ops/site-layers.ts';
import { StaticFiles } from '../../src/server/static-files.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { generate, treeHashes, workspace } from '../resilience/fixture.ts';
import { freePort } from '../support/ports.ts';
import { startNginx, type RunningNginx } from '../support/nginx.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let ws = '';
let paths: ReleasePaths;
let layeredB: Layered;
let layeredC: Layered;
const dir = (id: string) => path.join(paths.releasesDir, id);

const writeTree = (root: string, files: Record<string, string>) => {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
};
const contents = (root: string) => {
  const out: Record<string, string> = {};
  for (const rel of Object.keys(treeHashes(root))) out[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
  return out;
};

const A = {
  'index.html': 'home A',
  '404.html': 'not found',
  '_astro/site.css': 'body{}',
  'provider/one.html': 'one',
  'provider/one/vic.json': '{"one":1}',
  'provider/two.html': 'two',
  'provider/two/vic.json': '{"two":2}',
};
/** What C serves: A with the home page changed, two's card gone, two's page rendered anew. */
const C = { ...A, 'index.html': 'home B', 'provider/two.html': 'two again' } as Record<string, string>;
delete C['provider/two/vic.json'];

/** Lays release `id` over `previous` from the rendered files given. */
function layer(id: string, previous: string, rendered: Record<string, string>, removedUrlPaths: string[]): Layered {
  const out = path.join(ws, `rendered-${id}`);
  writeTree(out, rendered);
  fs.mkdirSync(dir(id), { recursive: true });
  return layerSite({ dir: dir(id), previousDir: dir(previous), base: baseReleaseOf(dir(previous))!, baseFiles: Object.keys(A).length, renderedDir: out, removedUrlPaths });
}

beforeAll(() => {
  ws = workspace('site-layers');
  paths = { releasesDir: path.join(ws, 'releases'), liveSnapshot: path.join(ws, 'directory.db'), staticRoot: path.join(ws, 'current') };
  writeTree(path.join(dir('a'), 'client'), A);
  makeFullSite(dir('a'));
  // B: the home page changed, three added, one rendered again unchanged, two removed.
  layeredB = layer('b', 'a', { 'index.html': 'home B', 'provider/three.html': 'three', 'provider/one.html': 'one' }, ['/provider/two', '/provider/two/vic.json']);
  // C: three removed again, two's page back (its card stays gone).
  layeredC = layer('c', 'b', { 'provider/two.html': 'two again' }, ['/provider/three']);
});

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('a layered site', () => {
  it('keeps in its overlay only what differs from the base, and names the removed base files in gone/', () => {
    expect(baseReleaseOf(dir('b'))).toBe('a');
    expect(contents(path.join(siteOf(dir('b')), 'overlay'))).toEqual({ 'index.html': 'home B', 'provider/three.html': 'three' });
    expect(Object.keys(treeHashes(path.join(siteOf(dir('b')), 'gone'))).sort()).toEqual(['provider/two.html', 'provider/two/vic.json']);
    expect(layeredB).toMatchObject({ removed: ['provider/two.html', 'provider/two/vic.json'], overlayFiles: 2, goneFiles: 2, files: 6 });
    expect(baseReleaseOf(dir('c'))).toBe('a');
    expect(contents(path.join(siteOf(dir('c')), 'overlay'))).toEqual({ 'index.html': 'home B', 'provider/two.html': 'two again' });
    expect(Object.keys(treeHashes(path.join(siteOf(dir('c')), 'gone')))).toEqual(['provider/two/vic.json']);
    expect(layeredC).toMatchObject({ removed: ['provider/three.html'], overlayFiles: 2, goneFiles: 1, files: 6 });
    // B is untouched by C (hard links are replaced, never written through).
    expect(contents(path.join(siteOf(dir('b')), 'overlay'))['provider/three.html']).toBe('three');
  });

  it('is written out as the plain tree it stands for', () => {
    const to = path.join(ws, 'export-c');
    expect(exportSite(siteOf(dir('c')), to)).toBe(Object.keys(C).length);
    expect(contents(to)).toEqual(C);
    expect(fs.existsSync(path.join(to, 'provider', 'two'))).toBe(false); // no empty folder left
    expect(() => exportSite(siteOf(dir('c')), to)).toThrow(/exists/);
  });

  it('is served by the node: the overlay first, gone files not at all, nothing outside a layer', () => {
    const statics = new StaticFiles(() => siteOf(dir('c')), () => ({}));
    const body = (p: string) => {
      const found = statics.resolve(p);
      return found ? fs.readFileSync(found.file, 'utf8') : null;
    };
    expect(body('/')).toBe('home B');
    expect(body('/provider/two')).toBe('two again');
    expect(body('/provider/one')).toBe('one');
    expect(body('/provider/one/vic.json')).toBe('{"one":1}');
    expect(body('/provider/two/vic.json')).toBeNull();
    expect(body('/provider/three')).toBeNull();
    expect(body('/%2e%2e/base/provider/two/vic.json')).toBeNull();
    expect(body('/%2e%2e/gone/provider/two/vic.json')).toBeNull();
    // A plain folder is read as it is.
    expect(new StaticFiles(() => path.join(dir('a'), 'client'), () => ({})).resolve('/provider/two/vic.json')).not.toBeNull();
  });

  it('gives the changed URLs from the rendered files and the removed ones', () => {
    expect(changedUrlPaths(siteOf(dir('b')), siteOf(dir('c')), ['provider/two.html'], layeredC.removed)).toEqual({ added: ['/provider/two'], removed: ['/provider/three'], changed: [] });
    const b = changedUrlPaths(siteOf(dir('a')), siteOf(dir('b')), ['index.html', 'provider/one.html', 'provider/three.html'], layeredB.removed);
    expect(b).toEqual({ added: ['/provider/three'], removed: ['/provider/two', '/provider/two/vic.json'], changed: ['/'] });
  });
});

describe('nginx with docs/nginx-static.conf over STATIC_ROOT', () => {
  let nginx: RunningNginx | undefined;
  let origin = '';
  beforeAll(async () => {
    fs.symlinkSync(siteOf(dir('c')), paths.staticRoot);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const http = `
  upstream directory_node { server 127.0.0.1:${await freePort()}; }
  server {
    listen 127.0.0.1:${port};
    root ${paths.staticRoot};
    include ${path.join(ROOT, 'docs/nginx-static.conf')};
  }`;
    nginx = await startNginx(path.join(ws, 'nginx'), http, { ready: async () => (await fetch(`${origin}/`)).ok });
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  it('serves the overlay, then the base, answers gone files 404, and follows a swap of the symlink without a reload', async () => {
    const get = async (p: string) => {
      const res = await fetch(`${origin}${p}`);
      return `${res.status} ${await res.text()}`;
    };
    expect(await get('/')).toBe('200 home B');
    expect(await get('/provider/two')).toBe('200 two again');
    expect(await get('/provider/one')).toBe('200 one');
    expect(await get('/provider/one/vic.json')).toBe('200 {"one":1}');
    expect(await get('/provider/two/vic.json')).toBe('404 not found');
    expect(await get('/provider/three')).toBe('404 not found');
    expect(await get('/base/provider/one.html')).toBe('404 not found');
    expect(await get('/gone/provider/two/vic.json')).toBe('404 not found');
    fs.symlinkSync(siteOf(dir('a')), `${paths.staticRoot}.next`);
    fs.renameSync(`${paths.staticRoot}.next`, paths.staticRoot);
    expect(await get('/provider/two/vic.json')).toBe('200 {"two":2}');
    expect(await get('/')).toBe('200 home A');
  });
});

describe('releases of layered sites', () => {
  let snapshot = '';
  beforeAll(async () => {
    snapshot = path.join(ws, 'snapshot.db');
    await buildSnapshot({ inputDir: await generate(path.join(ws, 'ds'), 20, 5), outFile: snapshot });
  });

  it('is published to the origin as the plain tree its layers resolve to', () => {
    fs.copyFileSync(snapshot, path.join(dir('c'), 'snapshot.db'));
    const originDir = path.join(ws, 'origin');
    const { manifest } = publishRelease(paths, 'c', originDir);
    const list = ReleaseFilesSchema.parse(JSON.parse(fs.readFileSync(path.join(originDir, manifest.files.path), 'utf8')));
    const published: Record<string, string> = {};
    for (const [p, sha] of list.files) if (p.startsWith('client/')) published[p.slice('client/'.length)] = fs.readFileSync(path.join(originDir, blobOnOrigin(sha)), 'utf8');
    expect(published).toEqual(C);
    expect(list.files.some(([p]) => p.startsWith('site/'))).toBe(false);
  });

  it('prune keeps the base a kept release is layered on', () => {
    writeHistory(paths, ['a', 'b', 'c']);
    expect(prune(paths, 1)).toEqual(['b']);
    expect(fs.existsSync(path.join(dir('a'), 'client'))).toBe(true);
    expect(contents(exportTo(siteOf(dir('c')), 'c-after-prune'))).toEqual(C);
  });

  it('folds an overlay into a new base of its own', () => {
    expect(compactSite(dir('c'))).toBe(Object.keys(C).length);
    expect(baseReleaseOf(dir('c'))).toBe('c');
    expect(contents(path.join(dir('c'), 'client'))).toEqual(C);
    expect(contents(exportTo(siteOf(dir('c')), 'c-folded'))).toEqual(C);
  });

  it('activates a release folder of the layout before layered sites (client/ only): STATIC_ROOT points at its new site/', () => {
    const old = dir('old');
    writeTree(path.join(old, 'client'), A);
    fs.copyFileSync(snapshot, path.join(old, 'snapshot.db'));
    ensureSite(old); // activate does it again, as after a publish: the second changes nothing
    activate(paths, 'old');
    expect(fs.realpathSync(paths.staticRoot)).toBe(fs.realpathSync(siteOf(old)));
    expect(baseReleaseOf(old)).toBe('old');
    expect(contents(exportTo(paths.staticRoot, 'old'))).toEqual(A);
  });
});

function exportTo(site: string, name: string): string {
  const to = path.join(ws, `export-${name}`);
  exportSite(site, to);
  return to;
}
