/**
 * The real builder on the hand-made mini dataset: what lands in which table, the
 * published rule, the displayable rules, and the FTS / vector indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, type BuildResult } from '../../src/snapshot/build.ts';
import { readSnapshotMeta, SCHEMA_VERSION, verifySnapshotFile } from '../../src/snapshot/snapshot-file.ts';
import { hashDataset } from '../../src/snapshot/dataset-hash.ts';
import { MINI_DATASET, tempDir } from './fixture.ts';
import { testLanguageData } from '../support/language-data.ts';

let dir: string;
let file: string;
let result: BuildResult;
let db: Database.Database;

beforeAll(async () => {
  dir = tempDir();
  file = path.join(dir, 'directory.db');
  result = await buildSnapshot({ languageData: testLanguageData(), inputDir: MINI_DATASET, outFile: file, embedder: null });
  db = new Database(file, { readonly: true, fileMustExist: true });
  sqliteVec.load(db);
});
afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const slugs = (sql: string) => (db.prepare(sql).all() as Array<{ slug: string }>).map((r) => r.slug).sort();
const rowids = (sql: string) => (db.prepare(sql).all() as Array<{ rowid: number }>).map((r) => r.rowid).sort((a, b) => a - b);

describe('snapshot from the mini dataset', () => {
  it('reports counts and leaves only the final file behind', () => {
    expect(result.counts).toMatchObject({ providers: 8, published: 3, categories: 5, proofs: 3, reports: 1, skipped: 0 });
    expect(result.issueCount).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['directory.db']);
  });

  it('publishes only approved providers with publishedAt', () => {
    expect(slugs('SELECT slug FROM published_providers')).toEqual(['cikarang-cloud', 'kopi-digital', 'nusantara-apps']);
    // approved without publishedAt, pending/suspended/rejected with publishedAt, draft: all stored, none published
    expect(slugs('SELECT slug FROM providers')).toContain('approved-unpublished');
    expect(slugs('SELECT slug FROM providers')).toContain('pending-provider');
  });

  it('indexes exactly the published providers in FTS5 and vec0, by providers.rowid', () => {
    const published = rowids('SELECT rowid FROM published_providers');
    expect(rowids('SELECT rowid FROM fts_providers')).toEqual(published);
    expect(rowids('SELECT rowid FROM vec_providers')).toEqual(published);
    const hit = db
      .prepare("SELECT p.slug FROM fts_providers f JOIN providers p ON p.rowid = f.rowid WHERE fts_providers MATCH 'toko'")
      .all();
    expect(hit).toEqual([{ slug: 'kopi-digital' }]);
    // category_names carries the parent's name too (Toko Online's parent is Web Development)
    const byParent = db
      .prepare(`SELECT p.slug FROM fts_providers f JOIN providers p ON p.rowid = f.rowid
                WHERE fts_providers MATCH 'category_names:development'`)
      .all();
    expect(byParent).toEqual([{ slug: 'kopi-digital' }]);
    // diacritics are folded: "tóko" finds "toko"
    expect(db.prepare("SELECT count(*) AS n FROM fts_providers WHERE fts_providers MATCH 'tóko'").get()).toEqual({ n: 1 });
  });

  it('answers a KNN query over vec_providers with the stored embedder dims', () => {
    const dims = Number(readSnapshotMeta(file).embedderDims);
    const row = db.prepare('SELECT embedding FROM vec_providers WHERE rowid = (SELECT rowid FROM providers WHERE slug = ?)').get(
      'kopi-digital',
    ) as { embedding: Buffer };
    expect(row.embedding.byteLength).toBe(dims * 4);
    const nearest = db
      .prepare('SELECT rowid, distance FROM vec_providers WHERE embedding MATCH ? AND k = 1')
      .all(row.embedding) as Array<{ rowid: number; distance: number }>;
    expect(nearest[0]!.rowid).toBe((db.prepare("SELECT rowid FROM providers WHERE slug = 'kopi-digital'").get() as { rowid: number }).rowid);
    expect(nearest[0]!.distance).toBeCloseTo(0, 5);
  });

  it('keeps dashboard fields in provider_dashboard only', () => {
    const notes = db.prepare('SELECT moderation_notes, internal_status FROM provider_dashboard WHERE moderation_notes IS NOT NULL ORDER BY provider_rowid').all();
    expect(notes).toEqual([
      { moderation_notes: 'SECRET-NOTE-verified by phone', internal_status: 'SECRET-STATUS-vip' },
      { moderation_notes: 'SECRET-NOTE-suspended', internal_status: null },
    ]);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>)
      .map((t) => t.name)
      .filter((name) => name !== 'provider_dashboard');
    for (const table of tables) {
      const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name);
      expect(columns, table).not.toContain('moderation_notes');
      expect(columns, table).not.toContain('internal_status');
      if (table.startsWith('fts_providers') || table.startsWith('vec_providers') || table === 'embedder_model') continue;
      const text = JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all());
      expect(text, table).not.toContain('SECRET-');
    }
  });

  it('holds money amounts only when displayable (available and IDR)', () => {
    const money = db
      .prepare(`SELECT slug, budget_available, budget_currency_class, min_project_budget_idr,
                       rate_available, rate_currency_class, hourly_rate_idr FROM providers ORDER BY rowid`)
      .all() as Array<Record<string, unknown>>;
    const bySlug = Object.fromEntries(money.map((m) => [m.slug, m]));
    expect(bySlug['kopi-digital']).toMatchObject({ budget_currency_class: 'IDR', min_project_budget_idr: 15000000, rate_currency_class: 'IDR', hourly_rate_idr: 350000 });
    expect(bySlug['nusantara-apps']).toMatchObject({ budget_available: 1, budget_currency_class: 'NON_IDR', min_project_budget_idr: null, rate_available: 1, rate_currency_class: 'UNKNOWN', hourly_rate_idr: null });
    expect(bySlug['cikarang-cloud']).toMatchObject({ budget_currency_class: 'UNKNOWN', min_project_budget_idr: null, hourly_rate_idr: 900000 });
    expect(bySlug['approved-unpublished']).toMatchObject({ budget_available: 0, budget_currency_class: null, min_project_budget_idr: null, rate_available: 0 });
    // the raw values are kept for analysts, apart
    const raw = db.prepare("SELECT min_budget_amount, min_budget_currency, hourly_rate_amount, hourly_rate_currency FROM provider_commercial_raw WHERE provider_rowid = (SELECT rowid FROM providers WHERE slug = 'nusantara-apps')").get();
    expect(raw).toEqual({ min_budget_amount: 5000, min_budget_currency: 'USD', hourly_rate_amount: 40, hourly_rate_currency: null });
  });

  it('parses employee ranges into min, max and business size', () => {
    const rows = db.prepare('SELECT slug, employee_min, employee_max, business_size FROM providers WHERE employee_available = 1 ORDER BY slug').all();
    expect(rows).toEqual([
      { slug: 'approved-unpublished', employee_min: 5, employee_max: 5, business_size: 'micro' },
      { slug: 'cikarang-cloud', employee_min: 51, employee_max: 200, business_size: 'medium' },
      { slug: 'kopi-digital', employee_min: 11, employee_max: 50, business_size: 'small' },
      { slug: 'nusantara-apps', employee_min: 201, employee_max: null, business_size: 'large' },
    ]);
  });

  it('stores categories, links, tags, city slugs, proofs and reports', () => {
    expect(db.prepare("SELECT category_id, position FROM provider_categories WHERE provider_rowid = 1 ORDER BY position").all()).toEqual([
      { category_id: 'cat-ecommerce', position: 0 },
      { category_id: 'cat-wordpress', position: 1 },
    ]);
    expect(db.prepare('SELECT primary_category_id, city_slug FROM providers WHERE rowid = 1').get()).toEqual({
      primary_category_id: 'cat-ecommerce',
      city_slug: 'jakarta-selatan',
    });
    // "WordPress" and "wordpress" collapse to one value_key; the first spelling is kept
    expect(db.prepare("SELECT value, value_key FROM provider_tags WHERE provider_rowid = 1 AND kind = 'capability' ORDER BY value_key").all()).toEqual([
      { value: 'WooCommerce', value_key: 'woocommerce' },
      { value: 'WordPress', value_key: 'wordpress' },
    ]);
    expect(db.prepare('SELECT id FROM public_proofs').all()).toEqual([{ id: 'prf-1' }]);
    expect(db.prepare('SELECT slug, category_slug, year FROM reports').all()).toEqual([
      { slug: 'web-development-indonesia-2026', category_slug: 'web-development', year: 2026 },
    ]);
    expect(db.prepare("SELECT slug, active, position FROM categories WHERE id = 'cat-legacy'").get()).toEqual({ slug: 'legacy-systems', active: 0, position: 4 });
  });

  it('counts published providers per place in published_places, equal to grouping the view', () => {
    const counted = db.prepare('SELECT city, city_slug, city_name, province, province_name, providers FROM published_places ORDER BY 1, 2, 4').all();
    const grouped = db
      .prepare('SELECT city, city_slug, city_name, province, province_name, count(*) AS providers FROM published_providers GROUP BY 1, 2, 4 ORDER BY 1, 2, 4')
      .all();
    expect(counted.length).toBeGreaterThan(0);
    expect(counted).toEqual(grouped);
  });

  it('records snapshot_meta and passes the verifier', async () => {
    const meta = readSnapshotMeta(file);
    expect(meta).toMatchObject({
      schemaVersion: SCHEMA_VERSION,
      datasetSource: MINI_DATASET,
      datasetHash: await hashDataset(MINI_DATASET),
      embedderName: 'builtin-lsa-v1',
      counts: { providers: 8, published: 3, categories: 5, proofs: 3, reports: 1 },
    });
    expect(meta.snapshotId.startsWith(meta.datasetHash.slice(0, 16))).toBe(true);
    expect(meta.snapshotId).toBe(result.snapshotId);
    expect(Number.isNaN(Date.parse(meta.builtAt))).toBe(false);
    expect(verifySnapshotFile(file)).toEqual({ ok: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'").get()).toEqual({ n: 1 });
  });

  it('gives every build its own snapshot id', async () => {
    const again = path.join(dir, 'again.db');
    const second = await buildSnapshot({ languageData: testLanguageData(), inputDir: MINI_DATASET, outFile: again, embedder: null });
    expect(second.snapshotId).not.toBe(result.snapshotId);
    expect(second.datasetHash).toBe(result.datasetHash);
    fs.rmSync(again);
  });
});
