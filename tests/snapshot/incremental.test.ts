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
import { diffFacts, readSnapshotFacts } from '../../src/ops/diff.ts';
import { DatasetInvalidError } from '../../src/snapshot/validate-issues.ts';
import { copyMiniDataset, readJson, readNdjson, tempDir, writeNdjson } from './fixture.ts';
import { loadLanguageData } from '../../src/language/sources.ts';

const work = tempDir('incremental-');
const languageData = loadLanguageData();
const base = path.join(work, 'base.db');
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The dataset changed: a tagline edited, one provider unpublished, a city respelled, one added at the end, a proof edited. */
function changedDataset(): string {
  const dir = copyMiniDataset();
  const providers = readNdjson(dir, 'providers.ndjson');
  providers[0]!.tagline = 'Toko online dan aplikasi kasir untuk UMKM';
  const published = providers.filter((p) => p.submissionStatus === 'approved' && p.publishedAt !== null);
  published[1]!.publishedAt = null;
  const city = published.find((p, i) => i > 1 && typeof p.city === 'string')!;
  city.city = (city.city as string).toUpperCase();
  providers.push({ ...providers[0]!, id: 'prv-new', slug: 'kopi-baru', companyName: 'Kopi Baru Kreatif', tagline: 'Desain logo dan kemasan kopi', city: 'Bandung', province: 'Jawa Barat' });
  writeNdjson(dir, 'providers.ndjson', providers);
  const proofs = readNdjson(dir, 'proofs.ndjson');
  proofs[0]!.title = 'Studi kasus toko kopi (diperbarui)';
  writeNdjson(dir, 'proofs.ndjson', proofs);
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
  dataset_records: 'SELECT * FROM dataset_records ORDER BY kind, key',
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
    const diff = diffFacts(readSnapshotFacts(base), readSnapshotFacts(incFile));
    expect(diff.added.map((p) => p.slug)).toEqual(['kopi-baru']);
    expect(diff.removed).toHaveLength(1);
    expect(diff.updated.map((u) => u.after.slug).sort()).toHaveLength(2);
    expect(diff.categoriesChanged).toBe(false);
    expect(diff.reportsChanged).toBe(false);
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
