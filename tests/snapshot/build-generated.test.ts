/**
 * The builder on a generated dataset (the generator's realistic mix of statuses,
 * currencies and categories): counts match the input, and the FTS and vector
 * indexes hold exactly the published providers.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/generate/index.ts';
import { SUMMARY_COLUMNS } from '../../src/query/provider-row.ts';
import { buildSnapshot, type BuildResult } from '../../src/snapshot/build.ts';
import { failingEmbedder } from '../support/failing-embedder.ts';
import { readNdjson, tempDir } from './fixture.ts';
import { testLanguageData } from '../support/language-data.ts';

let work: string;
let result: BuildResult;
let db: Database.Database;
let records: Array<Record<string, unknown>>;

beforeAll(async () => {
  work = tempDir();
  const dataset = path.join(work, 'dataset');
  await generateDataset({ providers: 400, seed: 7, outDir: dataset });
  records = readNdjson(dataset, 'providers.ndjson');
  result = await buildSnapshot({ languageData: testLanguageData(), inputDir: dataset, outFile: path.join(work, 'directory.db'), embedder: null, helperThreads: false });
  db = new Database(result.outFile, { readonly: true });
  sqliteVec.load(db);
});
afterAll(() => {
  db?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('snapshot from a generated dataset', () => {
  it('with helper threads, a failure late in the build still removes the temporary file', async () => {
    const failing = failingEmbedder();
    const failed = path.join(work, 'failed');
    fs.mkdirSync(failed);
    await expect(
      buildSnapshot({ languageData: testLanguageData(), inputDir: path.join(work, 'dataset'), outFile: path.join(failed, 'x.db'), embedder: failing, helperThreads: true }),
    ).rejects.toThrow('embedding service went away');
    expect(fs.readdirSync(failed)).toEqual([]);

    // and an invalid record (the postings worker is still running then)
    const broken = path.join(work, 'broken');
    fs.cpSync(path.join(work, 'dataset'), broken, { recursive: true });
    fs.appendFileSync(path.join(broken, 'providers.ndjson'), '{"id": "not-a-provider"}\n');
    await expect(
      buildSnapshot({ languageData: testLanguageData(), inputDir: broken, outFile: path.join(failed, 'x.db'), embedder: null, helperThreads: true }),
    ).rejects.toThrow(/providers\.ndjson/);
    expect(fs.readdirSync(failed)).toEqual([]);
  });

  it('keeps every record and publishes exactly approved providers with publishedAt', () => {
    const published = records.filter((r) => r.submissionStatus === 'approved' && r.publishedAt !== null);
    expect(result.counts.providers).toBe(400);
    expect(result.counts.published).toBe(published.length);
    expect(result.counts.published).toBeLessThan(400);
    const slugs = (db.prepare('SELECT slug FROM published_providers').all() as Array<{ slug: string }>).map((r) => r.slug).sort();
    expect(slugs).toEqual(published.map((r) => r.slug as string).sort());
  });

  it('writes no row whose reference is missing (the builder writes with foreign keys off)', () => {
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // the check reads the declared references: a link to a provider that is not there is found
    const copy = new Database(':memory:');
    copy.pragma('foreign_keys = OFF');
    copy.exec("CREATE TABLE providers (rowid INTEGER PRIMARY KEY); CREATE TABLE proofs (provider_rowid INTEGER REFERENCES providers(rowid)); INSERT INTO proofs VALUES (7)");
    expect(copy.pragma('foreign_key_check')).toHaveLength(1);
    copy.close();
  });

  it('copies the summary and figure columns of exactly the published providers into published_summaries', () => {
    const figureColumns = ['city_slug', 'min_project_budget_idr', 'hourly_rate_idr', 'published_at', 'updated_at'];
    const columns = db.prepare("SELECT name FROM pragma_table_info('published_summaries')").pluck().all();
    expect(columns).toEqual([...SUMMARY_COLUMNS, ...figureColumns]);
    const list = columns.join(', ');
    const copied = db.prepare(`SELECT ${list} FROM published_summaries ORDER BY rowid`).all();
    expect(copied.length).toBe(result.counts.published);
    expect(copied).toEqual(db.prepare(`SELECT ${list} FROM published_providers ORDER BY rowid`).all());
  });

  it('indexes exactly the published rowids in fts_providers and vec_providers', () => {
    const ids = (sql: string) => (db.prepare(sql).all() as Array<{ rowid: number }>).map((r) => r.rowid).sort((a, b) => a - b);
    const published = ids('SELECT rowid FROM published_providers');
    expect(ids('SELECT rowid FROM fts_providers')).toEqual(published);
    expect(ids('SELECT rowid FROM vec_providers')).toEqual(published);
  });

  it('never stores a non-IDR or unknown-currency amount in a displayable column', () => {
    const leaks = db
      .prepare(`SELECT count(*) AS n FROM providers p JOIN provider_commercial_raw r ON r.provider_rowid = p.rowid
                WHERE (p.min_project_budget_idr IS NOT NULL AND r.min_budget_currency IS NOT 'IDR')
                   OR (p.hourly_rate_idr IS NOT NULL AND r.hourly_rate_currency IS NOT 'IDR')
                   OR (p.min_project_budget_idr IS NULL AND r.min_budget_currency = 'IDR')`)
      .get();
    expect(leaks).toEqual({ n: 0 });
    const classes = db.prepare('SELECT DISTINCT budget_currency_class AS c FROM providers ORDER BY 1').all();
    expect(classes).toEqual([{ c: null }, { c: 'IDR' }, { c: 'NON_IDR' }, { c: 'UNKNOWN' }]);
  });

  it('embeds the same vectors and writes the same search postings on worker threads as on the main thread', async () => {
    const threaded = await buildSnapshot({ languageData: testLanguageData(),
      inputDir: path.join(work, 'dataset'),
      outFile: path.join(work, 'threaded.db'),
      embedder: null,
      embedThreads: 2,
      helperThreads: true,
    });
    expect(threaded.embedThreads).toBe(2);
    expect(result.embedThreads).toBe(1);
    const other = new Database(threaded.outFile, { readonly: true });
    sqliteVec.load(other);
    try {
      const vectors = (d: Database.Database) =>
        (d.prepare('SELECT rowid, embedding FROM vec_providers ORDER BY rowid').all() as Array<{ rowid: number; embedding: Buffer }>).map(
          (r) => `${r.rowid}:${r.embedding.toString('base64')}`,
        );
      const mine = vectors(db);
      expect(mine).toHaveLength(result.counts.published);
      expect(vectors(other)).toEqual(mine);
      const postings = (d: Database.Database) =>
        (d.prepare('SELECT term, df, hex(rowids) AS r, hex(impacts) AS i, hex(block_last) || hex(block_max) AS b FROM search_postings ORDER BY term').all() as Array<{
          term: string;
          df: number;
          r: string;
          i: string;
          b: string;
        }>).map((row) => `${row.term}:${row.df}:${row.r}:${row.i}:${row.b}`);
      const minePostings = postings(db);
      expect(minePostings.length).toBeGreaterThan(100);
      expect(postings(other)).toEqual(minePostings);
    } finally {
      other.close();
    }
  });
});
