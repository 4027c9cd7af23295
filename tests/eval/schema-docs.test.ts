/**
 * docs/schema.md is tested: every ```sql example in it runs against a snapshot of
 * the seed dataset (data/seed, built with the real builder, sqlite-vec loaded as
 * the doc tells an analyst to) and returns rows; and the doc states how far
 * FTS5 MATCH is from the API's ranking with the figure the measurement gives.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ftsTopOverlap } from '../../src/search/fts-overlap.ts';
import { loadJudgedQueries } from '../../src/search/eval.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { seedSnapshotCopy } from '../support/seed-snapshot.ts';

const doc = fs.readFileSync('docs/schema.md', 'utf8');
const examples = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());

let dir: string;
let db: Database.Database;
let snapshot: Snapshot;

beforeAll(async () => {
  let dbFile: string;
  ({ dir, dbFile } = await seedSnapshotCopy());
  db = new Database(dbFile, { readonly: true, fileMustExist: true });
  sqliteVec.load(db);
  snapshot = new Snapshot(dbFile);
}, 120_000);

afterAll(() => {
  db?.close();
  snapshot?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('docs/schema.md', () => {
  it('has SQL examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7);
  });

  for (const sql of examples) {
    it(`runs against the seed snapshot and returns rows: ${sql.split('\n')[0]}`, () => {
      const rows = db.prepare(sql).all();
      expect(rows.length).toBeGreaterThan(0);
    });
  }

  it('states the measured top-10 overlap of FTS5 MATCH with the API ranking', async () => {
    const requests = loadJudgedQueries('data/eval/queries.json').map((q) => q.q);
    const all = Math.round((await ftsTopOverlap(snapshot, requests, 'and')).mean * 100);
    const any = Math.round((await ftsTopOverlap(snapshot, requests, 'or')).mean * 100);
    expect(all).toBeLessThan(100);
    expect(doc).toContain(`${all}% of the API's top 10`);
    expect(doc).toContain(`${any}% with OR`);
  });
});
