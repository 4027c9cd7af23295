/**
 * npm run rebuild end to end with the real builder and the real `astro build`:
 * an incremental render is byte-identical to a full render of the same data, the
 * changed-URL list names the pages that changed, a dataset error leaves the live
 * snapshot and site byte-identical, and rollback restores the previous pair. An
 * incremental release is stored as layers over the full render before it; its
 * site is compared as `npm run release:export` writes it out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakDataset, editDataset } from './dataset-edits.ts';
import { exportSite } from '../../src/ops/site-layers.ts';
import { allChanged } from '../../src/ops/changed-urls.ts';
import { urlPathOfFile } from '../../src/ops/tree.ts';
import { deploymentEnv, generate, rebuildOk, runScript, sha256File, treeHashes, workspace } from '../resilience/fixture.ts';

let ws = '';
let env: Record<string, string> = {};
let dsA = '';
let edits: ReturnType<typeof editDataset>;

const history = () => (JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, 'history.json'), 'utf8')) as { active: string[] }).active;
const live = () => history()[history().length - 1]!;
const releaseJson = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, id, 'release.json'), 'utf8')) as {
    snapshotId: string;
    render: { mode: string; renderedPaths: number; copiedPaths: number };
    site: { base: string; baseFiles: number; overlayFiles: number; goneFiles: number };
  };
let exports = 0;
/** The files a site serves, by hash: written out as a plain tree first (the layers resolved). */
const siteHashes = (site: string) => {
  const to = path.join(ws, `export-${exports++}`);
  exportSite(site, to);
  return treeHashes(to);
};
const releaseSite = (id: string) => path.join(env.RELEASES_DIR!, id, 'site');

beforeAll(async () => {
  ws = workspace('rebuild');
  dsA = await generate(path.join(ws, 'dsA'), 160, 5);
  edits = editDataset(dsA, path.join(ws, 'dsB'), { update: 3, remove: 1, add: 1, unpublish: 1, moveCity: 1 });
  breakDataset(dsA, path.join(ws, 'dsBroken'));
  // Sitemaps of 40 URLs: several provider and VIC files, of which a small publish renders some (src/ops/sitemap-plan.ts).
  env = deploymentEnv(ws, { SITEMAP_MAX_URLS: '40' });
  await rebuildOk(dsA, env);
});

const treeHashesCount = (dir: string) => Object.keys(treeHashes(dir)).length;

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('npm run rebuild', () => {
  it('refuses a dataset error and leaves the live snapshot and site byte-identical', async () => {
    const snapshotBefore = sha256File(env.DIRECTORY_DB!);
    const linkBefore = fs.readlinkSync(env.STATIC_ROOT!);
    const siteBefore = siteHashes(env.STATIC_ROOT!);
    const historyBefore = history();

    const r = await runScript('rebuild', ['--input', path.join(ws, 'dsBroken')], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('providers.ndjson');
    expect(r.stderr).toContain('trustLevel');
    expect(r.stderr).toContain('nothing was switched');

    expect(sha256File(env.DIRECTORY_DB!)).toBe(snapshotBefore);
    expect(fs.readlinkSync(env.STATIC_ROOT!)).toBe(linkBefore);
    expect(siteHashes(env.STATIC_ROOT!)).toEqual(siteBefore);
    expect(history()).toEqual(historyBefore);
    expect(fs.readdirSync(env.RELEASES_DIR!).filter((n) => n.startsWith('.build-'))).toEqual([]);
  });

  it('renders only the changed pages, byte-identical to a full render, and lists the changed URLs', async () => {
    const releaseA = live();
    const r = await rebuildOk(path.join(ws, 'dsB'), env);
    const incremental = live();
    expect(releaseJson(incremental).render.mode, r.stderr).toBe('incremental');
    // An unpublished provider is a removed one to readers; a city change is an update.
    expect(r.stdout).toContain('providers: 1 added, 2 removed, 4 updated');
    for (const slug of [...edits.updated, ...edits.added, ...edits.removed, ...edits.unpublished, ...edits.moved]) expect(r.stdout).toContain(slug);
    expect(r.stderr).toContain('with the kept bundle');
    // The snapshot too is built from the live one (a small change: src/snapshot/build-choice.ts).
    // from the copy of the live snapshot made after the last publish (put back after the broken dataset's failed try)
    expect(r.stderr).toMatch(/snapshot: incremental from .*the copy made after the last publish/);
    // checked whole when it was made, so this snapshot's check is of its structure
    expect(r.stderr).toContain('snapshot check: structure (built on the copy checked after the last publish)');
    const spares = fs.readdirSync(env.RELEASES_DIR!).filter((n) => n.startsWith('.spare-'));
    expect(spares).toEqual([`.spare-${incremental}.db`]);
    expect(sha256File(path.join(env.RELEASES_DIR!, spares[0]!))).toBe(sha256File(path.join(env.RELEASES_DIR!, incremental, 'snapshot.db')));

    // The changed-URL list: the edited providers' pages and cards, the sitemaps, nothing from /_astro.
    const urls = fs.readFileSync(path.join(env.RELEASES_DIR!, incremental, 'changed-urls.txt'), 'utf8').trim().split('\n');
    const web = env.PUBLIC_WEB_URL!;
    for (const slug of edits.updated) {
      expect(urls).toContain(`${web}/provider/${slug}`);
      expect(urls).toContain(`${web}/provider/${slug}/vic.json`);
    }
    expect(urls).toContain(`${web}/provider/${edits.added[0]}`);
    expect(urls).toContain(`${web}/provider/${edits.removed[0]}`);
    expect(urls).toContain(`${web}/provider/${edits.unpublished[0]}`);
    expect(urls).toContain(`${web}/provider/${edits.moved[0]}`);
    expect(urls).toContain(`${web}/sitemap-providers.xml`);
    expect(urls.some((u) => u.includes('/kategori/'))).toBe(true);
    // Unchanged providers whose comparable cards moved (an edit reordered the head of their landing list).
    const edited = new Set([...edits.updated, ...edits.added, ...edits.removed, ...edits.unpublished, ...edits.moved]);
    const dependents = urls.map((u) => /\/provider\/([^/]+)$/.exec(u)?.[1]).filter((slug) => slug !== undefined && !edited.has(slug));
    expect(dependents.length, urls.join('\n')).toBeGreaterThan(0);
    expect(urls.some((u) => u.includes('/_astro/'))).toBe(false);
    const indexNow = JSON.parse(fs.readFileSync(path.join(env.RELEASES_DIR!, incremental, 'indexnow.json'), 'utf8')) as Record<string, unknown>;
    expect(indexNow).toEqual({ host: 'direktori.example', key: env.INDEXNOW_KEY, keyLocation: `${web}/${env.INDEXNOW_KEY}.txt`, urlList: urls });

    // The same data rendered whole must give the same bytes (a copy of the incremental tree first:
    // the next rebuild may prune it).
    const incrementalTree = siteHashes(releaseSite(incremental));
    // Taken from the render (the files whose bytes changed, the paths gone), the list is
    // the one a file-by-file comparison of the two releases' resolved trees gives.
    const treeA = siteHashes(releaseSite(releaseA));
    const pages = (files: string[]) => files.filter((f) => !/^(?:_astro\/|_headers$|_redirects$|404\.html$)/.test(f)).map(urlPathOfFile).sort();
    const compared = allChanged({
      added: pages(Object.keys(incrementalTree).filter((f) => !(f in treeA))),
      removed: pages(Object.keys(treeA).filter((f) => !(f in incrementalTree))),
      changed: pages(Object.keys(incrementalTree).filter((f) => f in treeA && treeA[f] !== incrementalTree[f])),
    });
    expect(urls).toEqual(compared.map((p) => `${web}${p}`));
    const rendered = Object.keys(incrementalTree).length;
    await rebuildOk(path.join(ws, 'dsB'), env, ['--full']);
    const full = live();
    expect(releaseJson(full).render.mode).toBe('full');
    expect(treeHashes(path.join(env.RELEASES_DIR!, full, 'client'))).toEqual(incrementalTree);
    expect(siteHashes(releaseSite(full))).toEqual(incrementalTree);
    expect(rendered).toBeGreaterThan(300);
    expect(Object.keys(incrementalTree).filter((f) => f.startsWith('sitemap-vic')).length).toBeGreaterThan(2);
    // Incremental means most files were copied, not rendered.
    const { renderedPaths, copiedPaths } = releaseJson(incremental).render;
    expect(renderedPaths + copiedPaths).toBe(rendered);
    expect(renderedPaths).toBeLessThan(rendered / 2);
    expect(fs.existsSync(path.join(env.RELEASES_DIR!, releaseA, 'client'))).toBe(true);

    // Stored as layers: no client/ of its own, the overlay holds the changed files only, the
    // removed provider's page is gone from the base, and the base is the release before.
    const layers = releaseJson(incremental).site;
    expect(fs.existsSync(path.join(env.RELEASES_DIR!, incremental, 'client'))).toBe(false);
    expect(layers.base).toBe(releaseA);
    expect(fs.realpathSync(path.join(releaseSite(incremental), 'base'))).toBe(fs.realpathSync(path.join(env.RELEASES_DIR!, releaseA, 'client')));
    expect(layers.overlayFiles).toBe(treeHashesCount(path.join(releaseSite(incremental), 'overlay')));
    expect(layers.overlayFiles).toBeLessThanOrEqual(renderedPaths);
    expect(fs.existsSync(path.join(releaseSite(incremental), 'gone', 'provider', `${edits.removed[0]}.html`))).toBe(true);
    expect(fs.existsSync(path.join(releaseSite(incremental), 'gone', 'provider', edits.removed[0]!, 'vic.json'))).toBe(true);
    expect(incrementalTree[`provider/${edits.removed[0]}.html`]).toBeUndefined();
    expect(releaseJson(full).site).toEqual({ base: full, baseFiles: rendered, overlayFiles: 0, goneFiles: 0 });
  }, 240_000); // two renders, on a shared 2-core machine

  it('rolls back to the previous release, then refuses when there is none left', async () => {
    const before = history();
    const r = await runScript('rollback', [], env);
    expect(r.code).toBe(0);
    const previous = before[before.length - 2]!;
    expect(live()).toBe(previous);
    expect(fs.realpathSync(env.STATIC_ROOT!)).toBe(fs.realpathSync(releaseSite(previous)));
    // The previous release is the layered one: its site still resolves to the same files.
    expect(releaseJson(previous).render.mode).toBe('incremental');
    expect(siteHashes(env.STATIC_ROOT!)).toEqual(treeHashes(path.join(env.RELEASES_DIR!, before[before.length - 1]!, 'client')));
    expect(sha256File(env.DIRECTORY_DB!)).toBe(sha256File(path.join(env.RELEASES_DIR!, previous, 'snapshot.db')));
    while (history().length > 1) expect((await runScript('rollback', [], env)).code).toBe(0);
    const last = await runScript('rollback', [], env);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('nothing to roll back to');
  });
});
