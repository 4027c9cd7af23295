/**
 * TagGroups (src/snapshot/tag-groups.ts) writes exactly the rows it was given:
 * every (kind, value_key, provider) once, each with its own spelling, whatever
 * order the tags arrived in.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { TagRow } from '../../src/snapshot/provider-columns.ts';
import { TagGroups } from '../../src/snapshot/tag-groups.ts';

const tag = (kind: TagRow['kind'], value: string): TagRow => ({ kind, value, value_key: value.toLowerCase() });

describe('TagGroups', () => {
  it('writes every given row once, spellings kept, into provider_tags', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE provider_tags (provider_rowid INTEGER NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
      value_key TEXT NOT NULL, PRIMARY KEY (kind, value_key, provider_rowid)) WITHOUT ROWID`);
    const given: Array<[number, TagRow[]]> = [];
    // 300 providers (more rows per tag than a group's first array holds), two spellings of one key
    for (let rowid = 1; rowid <= 300; rowid++) {
      const rows = [tag('capability', rowid % 3 === 0 ? 'SEO' : 'seo'), tag('language', 'Indonesian')];
      if (rowid % 7 === 0) rows.unshift(tag('industry', 'Retail'));
      given.push([rowid, rows]);
    }
    const groups = new TagGroups();
    for (const [rowid, rows] of given) groups.add(rowid, rows);
    groups.write(db);
    const written = db.prepare('SELECT provider_rowid, kind, value, value_key FROM provider_tags').raw().all() as unknown[][];
    const key = (r: unknown[]) => r.join('|');
    const expected = given.flatMap(([rowid, rows]) => rows.map((r) => [rowid, r.kind, r.value, r.value_key]));
    expect(written.map(key).sort()).toEqual(expected.map(key).sort());
    expect(db.prepare("SELECT count(*) FROM provider_tags WHERE value = 'SEO'").pluck().get()).toBe(100);
  });
});
