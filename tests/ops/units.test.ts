/** Small pieces of the ops code: URL mapping, render scope, the sitemap files a change is in, symlink swap, log masking, /healthz. */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { kindOf, countByKind } from '../../src/ops/changed-urls.ts';
import { swapSymlink, swapFile } from '../../src/ops/releases.ts';
import { withLock } from '../../src/ops/release-lock.ts';
import { stepLine } from '../../src/ops/rebuild-steps.ts';
import { sitemapPartsToRender } from '../../src/ops/sitemap-plan.ts';
import { prepareSpareSnapshot, readySpareSnapshot, spareSnapshotFile } from '../../src/ops/spare-snapshot.ts';
import type { ProviderFacts } from '../../src/ops/diff.ts';
import { filesOfUrlPath, urlPathOfFile } from '../../src/ops/tree.ts';
import { createLogger, maskSecrets, requestLogger } from '../../src/server/logging.ts';
import { handleHealth } from '../../src/server/health.ts';
import { loadEnv } from '../../src/env.ts';
import { inRenderScope, loadRenderScope, scopeStaticPaths } from '../../src/site/render-scope.ts';
import { manifestRoutes, removedPaths } from '../../src/ops/page-manifest.ts';
import { testAppContext } from '../support/app-context.ts';
import { workspace } from '../resilience/fixture.ts';

const ws = workspace('units');
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('file and URL mapping', () => {
  it('maps pre-rendered files to URL paths and back', () => {
    expect(urlPathOfFile('index.html')).toBe('/');
    expect(urlPathOfFile('provider/acme.html')).toBe('/provider/acme');
    expect(urlPathOfFile('provider/acme/vic.json')).toBe('/provider/acme/vic.json');
    expect(urlPathOfFile('sitemap-providers-2.xml')).toBe('/sitemap-providers-2.xml');
    expect(filesOfUrlPath('/provider/acme')).toContain('provider/acme.html');
    expect(filesOfUrlPath('/')).toEqual(['index.html']);
  });

  it('groups changed URLs by kind', () => {
    const paths = ['/provider/a', '/provider/a/vic.json', '/kategori/seo', '/web-development-terbaik-jakarta-selatan', '/sitemap.xml', '/'];
    expect(paths.map(kindOf)).toEqual(['provider page', 'VIC card', 'category page', 'landing page', 'sitemap', 'other page']);
    expect(countByKind(paths)['provider page']).toBe(1);
  });
});

describe('render scope', () => {
  it('selects listed paths, their descendants and prefix entries', async () => {
    const scopeFile = path.join(ws, 'scope.json');
    fs.writeFileSync(scopeFile, JSON.stringify(['/provider/acme', '/kategori/seo', '/sitemap*']));
    const manifestDir = path.join(ws, 'manifest');
    const scope = loadRenderScope(loadEnv({ RENDER_SCOPE_FILE: scopeFile, RENDER_MANIFEST_DIR: manifestDir }));
    const entries = ['acme', 'acme-2', 'beta'].map((slug) => ({ params: { slug } }));
    const kept = scopeStaticPaths(scope, 'provider/[slug]/vic.json', entries, (e) => `/provider/${e.params.slug}/vic.json`);
    expect(kept.map((e) => e.params.slug)).toEqual(['acme']);
    expect(inRenderScope(scope, '/sitemap-providers-2.xml')).toBe(true);
    expect(inRenderScope(scope, '/kategori/seo-lokal')).toBe(false);
    expect(inRenderScope(scope, '/')).toBe(false);
    // The manifest lists every path the route would render, not only the kept ones.
    const recorded = fs.readFileSync(path.join(manifestDir, `${encodeURIComponent('provider/[slug]/vic.json')}.paths`), 'utf8');
    expect(recorded.trim().split('\n')).toEqual(['/provider/acme/vic.json', '/provider/acme-2/vic.json', '/provider/beta/vic.json']);
    // Without the variables: everything is in scope and nothing is recorded.
    const full = loadRenderScope(loadEnv({}));
    expect(scopeStaticPaths(full, 'x', entries, (e) => `/provider/${e.params.slug}`)).toEqual(entries);
  });
});

describe('page manifest', () => {
  it('finds the paths a release no longer has, route by route', () => {
    const write = (dir: string, lists: Record<string, string[]>) => {
      const scope = loadRenderScope(loadEnv({ RENDER_MANIFEST_DIR: dir }));
      for (const [route, paths] of Object.entries(lists)) scopeStaticPaths(scope, route, paths, (p) => p);
    };
    const before = path.join(ws, 'manifest-before');
    const after = path.join(ws, 'manifest-after');
    write(before, { 'provider/[slug]': ['/provider/a', '/provider/b', '/provider/c'], 'laporan/[slug]': ['/laporan/x'], '[landing]': ['/seo-terbaik-bali'] });
    write(after, { 'provider/[slug]': ['/provider/a', '/provider/c', '/provider/d'], '[landing]': ['/seo-terbaik-bali'] });
    expect(manifestRoutes(before)).toEqual(['[landing]', 'laporan/[slug]', 'provider/[slug]']);
    // b is unpublished (d is new: not removed), the report route is gone whole, the landing list is the same.
    expect(removedPaths(before, after).sort()).toEqual(['/laporan/x', '/provider/b']);
    expect(removedPaths(after, after)).toEqual([]);
    expect(manifestRoutes(path.join(ws, 'no-manifest'))).toEqual([]);
  });
});

describe('the sitemap files a change is in', () => {
  const slugs = Array.from({ length: 10 }, (_, i) => `p${i}`); // p0..p9, 3 per file: [p0 p1 p2] [p3 p4 p5] [p6 p7 p8] [p9]
  const fact = (slug: string): ProviderFacts => ({ slug, companyName: slug, categorySlugs: [], citySlug: null, hash: '' });
  const edit = (slug: string) => ({ before: fact(slug), after: fact(slug) });
  const none = { added: [], removed: [], updated: [] };

  it('renders only the files of edited providers when none was added or removed', () => {
    expect(sitemapPartsToRender(slugs, { ...none, updated: [edit('p4'), edit('p5'), edit('p9')] }, 3)).toEqual([2, 4]);
    expect(sitemapPartsToRender(slugs, none, 3)).toEqual([]);
  });

  it('renders every file from the first changed slug on when one is added or removed', () => {
    // p45 added (now at index 5): files 2 to 4 move; a removed p05 would have sat in file 1 (before p1).
    const withNew = [...slugs.slice(0, 5), 'p45', ...slugs.slice(5)];
    expect(sitemapPartsToRender(withNew, { ...none, added: [fact('p45')], updated: [edit('p8')] }, 3)).toEqual([2, 3, 4]);
    expect(sitemapPartsToRender(slugs, { ...none, removed: [fact('p05')] }, 3)).toEqual([1, 2, 3, 4]);
    // A removal after the last slug moves no file but the last.
    expect(sitemapPartsToRender(slugs, { ...none, removed: [fact('p99')] }, 3)).toEqual([4]);
  });
});

describe('atomic switches', () => {
  it('replaces a symlink and a file by rename, leaving no temporary names behind', () => {
    const a = path.join(ws, 'ra');
    const b = path.join(ws, 'rb');
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    const link = path.join(ws, 'current');
    swapSymlink(link, a);
    expect(fs.realpathSync(link)).toBe(fs.realpathSync(a));
    swapSymlink(link, b);
    expect(fs.realpathSync(link)).toBe(fs.realpathSync(b));
    const src = path.join(ws, 'snap-src');
    fs.writeFileSync(src, 'new');
    const dest = path.join(ws, 'live.db');
    fs.writeFileSync(dest, 'old');
    const oldIno = fs.statSync(dest).ino;
    swapFile(dest, src);
    expect(fs.readFileSync(dest, 'utf8')).toBe('new');
    expect(fs.statSync(dest).ino).not.toBe(oldIno);
    expect(fs.readdirSync(ws).filter((n) => n.includes('.next'))).toEqual([]);
  });
});

describe('the release lock', () => {
  it('runs a second task after the first, telling whom it waits behind', async () => {
    const dir = path.join(ws, 'lock');
    const order: string[] = [];
    const told: string[] = [];
    let release!: () => void;
    const first = withLock(dir, { task: 'rebuild --input a', log: (m) => told.push(`a: ${m}`) }, async () => {
      order.push('a start');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('a end');
    });
    const second = withLock(dir, { task: 'rollback', log: (m) => told.push(`b: ${m}`) }, async () => {
      order.push('b');
      return 'b done';
    });
    while (told.length === 0 || order.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['a start']);
    expect(told[0]).toMatch(new RegExp(`^b: queued behind pid ${process.pid} \\(started \\d\\d:\\d\\d:\\d\\d: rebuild --input a\\); this rollback starts when it ends$`));
    release();
    await first;
    expect(await second).toBe('b done');
    expect(order).toEqual(['a start', 'a end', 'b']);
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
    expect(fs.readdirSync(path.join(dir, '.queue'))).toEqual([]);
  });

  it('releases the lock when the task fails', async () => {
    const dir = path.join(ws, 'lock-fail');
    const log = () => {};
    await expect(withLock(dir, { task: 'rebuild', log }, () => Promise.reject(new Error('bad dataset')))).rejects.toThrow('bad dataset');
    expect(await withLock(dir, { task: 'rebuild', log }, () => Promise.resolve(2))).toBe(2);
  });

  it('sums the steps up in one line', () => {
    const line = stepLine({ steps: [{ name: 'queue', ms: 0, peakRssMb: 80 }, { name: 'snapshot', ms: 2140, peakRssMb: 250 }, { name: 'render', ms: 7460, peakRssMb: 310 }], totalMs: 10_900, peakRssMb: 310, renderPeakRssMb: 612 });
    expect(line).toBe('steps: queue 0.0s | snapshot 2.1s | render 7.5s | total 10.9s | peak RSS 310 MB, render child 612 MB');
    expect(stepLine({ steps: [], totalMs: 1000, peakRssMb: 90, renderPeakRssMb: null })).toBe('steps: total 1.0s | peak RSS 90 MB');
  });
});

describe('logging', () => {
  it('masks key-shaped text and redacts secret headers', async () => {
    expect(maskSecrets('/api/pdk_live_abcdefgh1234567890abcdefgh1234567890abcdefg/x')).toBe('/api/[REDACTED]/x');
    expect(maskSecrets('Bearer abc.def')).toBe('[REDACTED]');
    let out = '';
    const sink = new Writable({ write: (chunk, _enc, cb) => ((out += String(chunk)), cb()) });
    const logger = createLogger('info', sink);
    logger.info({ req: { headers: { 'x-api-key': 'pdk_live_secret', authorization: 'Bearer pdk_live_secret' } } }, 'x');
    requestLogger(logger)({ requestId: 'r1', method: 'GET', route: '/api/pdk_live_secretsecret', status: 200, ms: 1.234 });
    await new Promise((r) => setImmediate(r));
    expect(out).not.toContain('pdk_live_secret');
    const line = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'request', requestId: 'r1', method: 'GET', status: 200, ms: 1.2, level: 'info' });
  });
});

describe('/healthz', () => {
  it('answers 405 with Allow for other methods and 503 when no snapshot can be opened', async () => {
    const app = testAppContext({ DIRECTORY_DB: path.join(ws, 'no-such-snapshot.db') });
    const post = handleHealth(new Request('http://x/healthz', { method: 'POST' }), app);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const down = handleHealth(new Request('http://x/healthz'), app);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('the spare snapshot (the next publish\'s copy, made ahead)', () => {
  it('is made only from a copy that passes its check, and removes the spares of other releases', async () => {
    const paths = { releasesDir: path.join(ws, 'spare-releases'), liveSnapshot: path.join(ws, 'spare-live.db'), staticRoot: path.join(ws, 'spare-current') };
    fs.mkdirSync(path.join(paths.releasesDir, 'r1'), { recursive: true });
    fs.writeFileSync(path.join(paths.releasesDir, 'r1', 'snapshot.db'), 'not a database, as a damaged file would read');
    fs.writeFileSync(spareSnapshotFile(paths, 'r0'), 'an older release\'s spare');
    await expect(prepareSpareSnapshot(paths, 'r1')).rejects.toThrow(/the copy failed its check/);
    expect(fs.readdirSync(paths.releasesDir)).toEqual(['r1']);
    expect(readySpareSnapshot(paths, 'r1', path.join(paths.releasesDir, 'r1', 'snapshot.db'))).toBeUndefined();
  });
});
