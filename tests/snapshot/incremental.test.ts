/**
 * Incremental snapshots (src/snapshot/build-incremental.ts) against the definition of
 * what they must be: a full build of the same dataset with the base's frozen statistics
 * (buildSnapshot({ frozenFrom })). Real fixture builds; every table search, the API and
 * the diff read is compared row for row, and the snapshot passes the full build's checks.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { buildChoosing } from '../../src/snapshot/build-choice.ts';
import { verifySnapshotFile } from '../../src/snapshot/snapshot-file.ts';
import { diffSnapshots } from '../../src/ops/diff.ts';
import { touchedAggregates } from '../../src/ops/render-plan.ts';
import { siteAggregates, updatedSiteAggregates } from '../../src/query/site-aggregates.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { DatasetInvalidError, IssueLog } from '../../src/snapshot/validate-issues.ts';
import { readDataset } from '../../src/snapshot/dataset-reader.ts';
import { scanAgainst } from '../../src/snapshot/build-incremental.ts';
import { copyMiniDataset, readJson, readNdjson, rewriteNdjson, tempDir } from './fixture.ts';
import { loadLanguageData } from '../../src/language/sources.ts';

const work = tempDir('incremental-');
const languageData = loadLanguageData();
const base = path.join(work, 'base.db');
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The dataset changed: a tagline edited, one provider unpublished, a city respelled, one added at the end, a proof edited. */
function changedDataset(): string {
  const dir = copyMiniDataset();
  rewriteNdjson(dir, 'providers.ndjson', (providers) => {
    providers[0]!.tagline = 'Toko online dan aplikasi kasir untuk UMKM';
    const published = providers.filter((p) => p.submissionStatus === 'approved' && p.publishedAt !== null);
    published[1]!.publishedAt = null;
    const city = published.find((p, i) => i > 1 && typeof p.city === 'string')!;
    city.city = (city.city as string).toUpperCase();
    providers.push({ ...providers[0]!, id: 'prv-new', slug: 'kopi-baru', companyName: 'Kopi Baru Kreatif', tagline: 'Desain logo dan kemasan kopi', city: 'Bandung', province: 'Jawa Barat' });
  });
  rewriteNdjson(dir, 'proofs.ndjson', (proofs) => {
    proofs[0]!.title = 'Studi kasus toko kopi (diperbarui)';
  });
  return dir;
}

function open(file: string): Database.Database {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  return db;
}

const TABLES: Record<string, string> = {
  providers: 'SELECT * FROM providers ORDER BY rowid',
  provider_dashboard: 'SELECT * FROM provider_dashboard ORDER BY provider_rowid',
  provider_categories: 'SELECT * FROM provider_categories ORDER BY provider_rowid, category_id',
  provider_tags: 'SELECT * FROM provider_tags ORDER BY provider_rowid, kind, value_key, value',
  proofs: 'SELECT * FROM proofs ORDER BY id',
  reports: 'SELECT * FROM reports ORDER BY slug',
  published_summaries: 'SELECT * FROM published_summaries ORDER BY rowid',
  published_places: 'SELECT * FROM published_places ORDER BY city, city_slug, province',
  published_facts: 'SELECT * FROM published_facts ORDER BY slug',
  search_postings: 'SELECT term, df, hex(rowids), hex(impacts), hex(block_last), hex(block_max) FROM search_postings ORDER BY term',
  search_columns: 'SELECT name, hex(data) FROM search_columns ORDER BY name',
  vector_partitions: 'SELECT list, coarse, hex(centroid), hex(rowids), hex(vectors), hex(codes), hex(spill_rowids) FROM vector_partitions ORDER BY list',
  vec_providers: 'SELECT rowid, hex(embedding) FROM vec_providers ORDER BY rowid',
  dataset_lines: 'SELECT file, hex(hashes), hex(spans), hex(records), hex(group_ends), hex(group_hashes) FROM dataset_lines ORDER BY file',
  proof_lines: 'SELECT id, hex(hash) FROM proof_lines ORDER BY id',
  embedder_model: 'SELECT key, hex(value) FROM embedder_model',
  fts_match: "SELECT rowid FROM fts_providers WHERE fts_providers MATCH 'kopi OR toko OR online OR jakarta' ORDER BY rowid",
};

describe('incremental snapshot build', () => {
  let incremental: Awaited<ReturnType<typeof buildChoosing>>;
  const incFile = path.join(work, 'incremental.db');
  const frozenFile = path.join(work, 'frozen.db');
  let baseHash: string;
  let dataset: string;

  beforeAll(async () => {
    await buildSnapshot({ inputDir: copyMiniDataset(), outFile: base, languageData });
    baseHash = sha(base);
    dataset = changedDataset();
    incremental = await buildChoosing({ inputDir: dataset, outFile: incFile, base, languageData });
    await buildSnapshot({ inputDir: dataset, outFile: frozenFile, frozenFrom: base, languageData });
  }, 120_000);
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('builds incrementally, says so, and leaves the base untouched', () => {
    expect(incremental.mode).toBe('incremental');
    expect(incremental.line).toMatch(/^snapshot: incremental from .*base\.db, 4 providers changed .*1 added, 3 edited, 0 gone/);
    expect(sha(base)).toBe(baseHash);
  });

  it('passes the checks a full build passes: integrity, references, published only, no leaks', () => {
    expect(verifySnapshotFile(incFile)).toEqual({ ok: true });
    const db = open(incFile);
    try {
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const published = db.prepare('SELECT rowid FROM published_providers ORDER BY rowid').pluck().all();
      expect(db.prepare('SELECT rowid FROM vec_providers ORDER BY rowid').pluck().all()).toEqual(published);
      expect(db.prepare('SELECT rowid FROM published_summaries ORDER BY rowid').pluck().all()).toEqual(published);
      expect(db.prepare('SELECT provider_rowid FROM published_facts ORDER BY provider_rowid').pluck().all()).toEqual(published);
      const unpublishedSlug = readNdjson(dataset, 'providers.ndjson').filter((p) => p.publishedAt === null || p.submissionStatus !== 'approved').map((p) => p.slug);
      expect(db.prepare('SELECT slug FROM published_summaries').pluck().all()).not.toEqual(expect.arrayContaining([unpublishedSlug[0]]));
      const text = JSON.stringify(db.prepare('SELECT * FROM published_summaries').all()) + JSON.stringify(db.prepare('SELECT * FROM published_facts').all());
      expect(text).not.toMatch(/SECRET-/);
    } finally {
      db.close();
    }
  });

  it('equals a full build made with the same frozen statistics, table by table', () => {
    const [a, b] = [open(incFile), open(frozenFile)];
    try {
      for (const [name, sql] of Object.entries(TABLES)) expect({ name, rows: a.prepare(sql).raw().all() }).toEqual({ name, rows: b.prepare(sql).raw().all() });
    } finally {
      a.close();
      b.close();
    }
  });

  it('equals a full build after a slug moved in the slug order, the last provider gone and a proof gone', async () => {
    const dir = copyMiniDataset();
    rewriteNdjson(dir, 'providers.ndjson', (providers) => {
      const published = providers.filter((p) => p.submissionStatus === 'approved' && p.publishedAt !== null);
      const first = published.map((p) => String(p.slug)).sort()[0]!;
      published.find((p) => p.slug !== first)!.slug = `${first}-2`; // now second in the slug order
      providers.pop();
    });
    rewriteNdjson(dir, 'proofs.ndjson', (proofs) => {
      const last = readNdjson(copyMiniDataset(), 'providers.ndjson').at(-1)!.id;
      proofs.splice(1, 1);
      for (let i = proofs.length - 1; i >= 0; i--) if (proofs[i]!.providerId === last) proofs.splice(i, 1);
    });
    const inc = path.join(work, 'inc-2.db');
    const frozen = path.join(work, 'frozen-2.db');
    const chosen = await buildChoosing({ inputDir: dir, outFile: inc, base, languageData });
    expect(chosen.line).toMatch(/, 1 gone\)/);
    await buildSnapshot({ inputDir: dir, outFile: frozen, frozenFrom: base, languageData });
    const [a, b] = [open(inc), open(frozen)];
    try {
      for (const [name, sql] of Object.entries(TABLES)) expect({ name, rows: a.prepare(sql).raw().all() }).toEqual({ name, rows: b.prepare(sql).raw().all() });
      expect(a.prepare("SELECT value FROM snapshot_meta WHERE key = 'dataset_hash'").pluck().get()).toBe(b.prepare("SELECT value FROM snapshot_meta WHERE key = 'dataset_hash'").pluck().get());
    } finally {
      a.close();
      b.close();
    }
  }, 60_000);

  it('gives the same place names as a full build after a city spelling change', async () => {
    const full = path.join(work, 'full.db');
    await buildSnapshot({ inputDir: dataset, outFile: full, languageData });
    const [a, b] = [open(incFile), open(full)];
    try {
      const names = 'SELECT slug, city, city_name, province, province_name FROM providers ORDER BY slug';
      expect(a.prepare(names).all()).toEqual(b.prepare(names).all());
      expect(a.prepare(TABLES.published_places!).all()).toEqual(b.prepare(TABLES.published_places!).all());
    } finally {
      a.close();
      b.close();
    }
  }, 60_000);

  it('gives the diff the rebuild renders from', () => {
    const diff = diffSnapshots(base, incFile);
    expect(diff.added.map((p) => p.slug)).toEqual(['kopi-baru']);
    expect(diff.removed).toHaveLength(1);
    expect(diff.updated.map((u) => u.after.slug).sort()).toHaveLength(2);
    expect(diff.categoriesChanged).toBe(false);
    expect(diff.reportsChanged).toBe(false);
  });

  it('gives the site aggregates a full computation gives, updated where the change is', () => {
    const [before, after] = [new Snapshot(base), new Snapshot(incFile)];
    try {
      const touched = touchedAggregates(diffSnapshots(base, incFile));
      expect(touched.groups.length).toBeGreaterThan(0);
      const updated = updatedSiteAggregates(after, siteAggregates(before), touched);
      expect(updated).not.toEqual(siteAggregates(before));
      expect(updated).toEqual(siteAggregates(after));
    } finally {
      before.close();
      after.close();
    }
  });

  it('fails on a dataset error with file, line and field, the base untouched', async () => {
    const dir = changedDataset();
    const lines = fs.readFileSync(path.join(dir, 'providers.ndjson'), 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/"trustLevel":\s*\d/, '"trustLevel":"high"');
    fs.writeFileSync(path.join(dir, 'providers.ndjson'), lines.join('\n'));
    const out = path.join(work, 'bad.db');
    const error = await buildChoosing({ inputDir: dir, outFile: out, base, languageData }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetInvalidError);
    expect((error as DatasetInvalidError).issues[0]).toMatchObject({ file: 'providers.ndjson', line: 3, field: 'trustLevel' });
    expect(fs.existsSync(out)).toBe(false);
    expect(sha(base)).toBe(baseHash);
  });

  /** The issues the full reader reports for a dataset, which the incremental scan must report too. */
  async function fullReaderIssues(dir: string) {
    const issues = new IssueLog();
    await readDataset(dir, null, { issues, skipInvalid: false });
    return issues.kept;
  }

  it('checks the edited lines across the unchanged ones as a full read does: duplicate slug and id, proofs of a provider gone', async () => {
    const cases: Array<[string, (dir: string) => void]> = [
      ['a slug taken by an earlier unchanged line', (dir) => rewriteNdjson(dir, 'providers.ndjson', (p) => void (p[3]!.slug = p[1]!.slug))],
      ['a slug taken by a later unchanged line', (dir) => rewriteNdjson(dir, 'providers.ndjson', (p) => void (p[1]!.slug = p[3]!.slug))],
      ['an id taken by an unchanged line', (dir) => rewriteNdjson(dir, 'providers.ndjson', (p) => void (p[4]!.id = p[2]!.id))],
      ['an unchanged line repeated', (dir) => rewriteNdjson(dir, 'providers.ndjson', (p) => void p.push(p[2]!))],
      ['the provider of unchanged proofs gone', (dir) => {
        const owner = readNdjson(dir, 'proofs.ndjson')[0]!.providerId;
        rewriteNdjson(dir, 'providers.ndjson', (p) => void p.splice(p.findIndex((r) => r.id === owner), 1));
      }],
    ];
    for (const [name, edit] of cases) {
      const dir = copyMiniDataset();
      edit(dir);
      const expected = await fullReaderIssues(dir);
      const error = await scanAgainst(base, dir, 1000).catch((e: unknown) => e);
      expect({ name, error: error instanceof DatasetInvalidError }).toEqual({ name, error: true });
      expect({ name, issues: (error as DatasetInvalidError).issues }).toEqual({ name, issues: expected });
      expect(expected.length).toBeGreaterThan(0);
    }
    const slug = copyMiniDataset();
    cases[0]![1](slug);
    const error = (await scanAgainst(base, slug, 1000).catch((e: unknown) => e)) as DatasetInvalidError;
    expect(error.issues[0]).toMatchObject({ file: 'providers.ndjson', line: 4, field: 'slug' });
  });

  it('parses only the changed lines: an unchanged dataset is no change, blank lines and CRLF keep the numbering', async () => {
    const dir = copyMiniDataset();
    const same = await scanAgainst(base, dir, 1000);
    expect([same.providers.length, same.proofs.length, same.removed.length, same.proofsReplaced.length]).toEqual([0, 0, 0, 0]);
    const file = path.join(dir, 'providers.ndjson');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[5] = lines[5]!.replace(/"trustLevel":\s*\d/, '"trustLevel":"high"');
    fs.writeFileSync(file, `\uFEFF${lines.slice(0, 2).join('\r\n')}\r\n\r\n${lines.slice(2).join('\n')}`);
    const expected = await fullReaderIssues(dir);
    expect(expected[0]).toMatchObject({ file: 'providers.ndjson', line: 7, field: 'trustLevel' });
    const error = (await scanAgainst(base, dir, 1000).catch((e: unknown) => e)) as DatasetInvalidError;
    expect(error.issues).toEqual(expected);
  });

  it('builds in full when the taxonomy changes, or on --full', async () => {
    const dir = changedDataset();
    const categories = readJson(dir, 'categories.json');
    categories[0]!.name = `${String(categories[0]!.name)} baru`;
    fs.writeFileSync(path.join(dir, 'categories.json'), JSON.stringify(categories));
    const taxonomy = await buildChoosing({ inputDir: dir, outFile: path.join(work, 'taxonomy.db'), base, languageData });
    expect(taxonomy).toMatchObject({ mode: 'full', line: 'snapshot: full (the taxonomy (categories.json) changed)' });
    const forced = await buildChoosing({ inputDir: dataset, outFile: path.join(work, 'forced.db'), base, forceFull: true, languageData });
    expect(forced.line).toBe('snapshot: full (--full given)');
  }, 60_000);
});
