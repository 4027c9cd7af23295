/**
 * Each kind of dataset problem, through the real builder: the message names the
 * file, the line (or .json index) and the field; --skip-invalid leaves the bad
 * record and its dependents out.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { DatasetInvalidError } from '../../src/snapshot/validate-issues.ts';
import { copyMiniDataset, editNdjson, readJson, readNdjson, tempDir, writeJson, writeNdjson } from './fixture.ts';
import { testLanguageData } from '../support/language-data.ts';

const cleanup: string[] = [];
afterEach(() => {
  for (const dir of cleanup.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataset(): string {
  const dir = copyMiniDataset();
  cleanup.push(dir);
  return dir;
}

/** Builds and returns the error's message lines (the build must fail). */
async function failures(dir: string): Promise<string[]> {
  const out = tempDir();
  cleanup.push(out);
  const error = await buildSnapshot({ languageData: testLanguageData(), inputDir: dir, outFile: path.join(out, 'x.db'), embedder: null }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(DatasetInvalidError);
  expect(fs.readdirSync(out)).toEqual([]); // no snapshot, no temp file
  return (error as Error).message.split('\n').slice(1);
}

describe('record validation', () => {
  it('names file, line and field of a bad value', async () => {
    const dir = dataset();
    editNdjson(dir, 'providers.ndjson', 2, (r) => ({ ...r, trustLevel: 7 }));
    expect(await failures(dir)).toEqual(['providers.ndjson:3: field "trustLevel": must be an integer between 0 and 5 (got 7)']);
  });

  it('reports every problem of a record, missing fields and nested paths included', async () => {
    const dir = dataset();
    editNdjson(dir, 'providers.ndjson', 0, (r) => {
      const { website: _dropped, ...rest } = r;
      return { ...rest, hourlyRate: { amount: 10, currency: 'rupiah', provenance: 'x' }, submissionStatus: 'live', slug: 'Bad Slug' };
    });
    const lines = await failures(dir);
    expect(lines).toContain('providers.ndjson:1: field "website": is required');
    expect(lines).toContain('providers.ndjson:1: field "hourlyRate.currency": must be an ISO 4217 code such as IDR (got "rupiah")');
    expect(lines.some((l) => l.startsWith('providers.ndjson:1: field "submissionStatus": must be one of "draft"'))).toBe(true);
    expect(lines.some((l) => l.startsWith('providers.ndjson:1: field "slug": must be lowercase'))).toBe(true);
  });

  it('reports a line that is not JSON, counting blank lines', async () => {
    const dir = dataset();
    const records = readNdjson(dir, 'providers.ndjson');
    writeNdjson(dir, 'providers.ndjson', [records[0]!, '', '{"id": "broken",', ...records.slice(1)]);
    const lines = await failures(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^providers\.ndjson:3: invalid JSON: /);
  });

  it('uses the record index for .json files', async () => {
    const dir = dataset();
    const categories = readJson(dir, 'categories.json');
    categories[2] = { ...categories[2], active: 'yes' };
    writeJson(dir, 'categories.json', categories);
    expect(await failures(dir)).toContain('categories.json[2]: field "active": must be true or false (got "yes")');
  });

  it('fails clearly on a missing required file and accepts missing optional ones', async () => {
    const dir = dataset();
    fs.rmSync(path.join(dir, 'providers.ndjson'));
    expect((await failures(dir))[0]).toBe(`providers.ndjson: not found in ${dir} (required)`);

    const optional = dataset();
    fs.rmSync(path.join(optional, 'proofs.ndjson'));
    fs.rmSync(path.join(optional, 'reports.json'));
    const out = tempDir();
    cleanup.push(out);
    const result = await buildSnapshot({ languageData: testLanguageData(), inputDir: optional, outFile: path.join(out, 'x.db'), embedder: null });
    expect(result.counts).toMatchObject({ providers: 8, proofs: 0, reports: 0 });
    expect(result.notes).toEqual(['proofs.ndjson not found: building without proofs', 'reports.json not found: building without reports']);
  });

  it('rejects a categories.json that is not a JSON array', async () => {
    const dir = dataset();
    fs.writeFileSync(path.join(dir, 'categories.json'), '{"id": 1}');
    expect(await failures(dir)).toEqual(['categories.json: must be a JSON array of records']);
  });
});

describe('referential checks', () => {
  it('unknown categoryIds', async () => {
    const dir = dataset();
    editNdjson(dir, 'providers.ndjson', 1, (r) => ({ ...r, categoryIds: ['cat-mobile', 'cat-nope'] }));
    expect(await failures(dir)).toEqual(['providers.ndjson:2: field "categoryIds[1]": unknown category id "cat-nope"']);
  });

  it('duplicate provider ids and slugs', async () => {
    const dir = dataset();
    editNdjson(dir, 'providers.ndjson', 3, (r) => ({ ...r, id: 'prv-1' }));
    editNdjson(dir, 'providers.ndjson', 4, (r) => ({ ...r, slug: 'kopi-digital' }));
    expect(await failures(dir)).toEqual([
      'providers.ndjson:4: field "id": duplicate id "prv-1"',
      'providers.ndjson:5: field "slug": duplicate slug "kopi-digital" (first on line 1)',
    ]);
  });

  it('proofs of unknown providers and duplicate proof ids', async () => {
    const dir = dataset();
    editNdjson(dir, 'proofs.ndjson', 1, (r) => ({ ...r, providerId: 'prv-404' }));
    editNdjson(dir, 'proofs.ndjson', 2, (r) => ({ ...r, id: 'prf-1' }));
    expect(await failures(dir)).toEqual([
      'proofs.ndjson:2: field "providerId": provider "prv-404" is unknown',
      'proofs.ndjson:3: field "id": duplicate id "prf-1"',
    ]);
  });

  it('duplicate category ids and slugs, unknown parents and parent cycles', async () => {
    const dir = dataset();
    const categories = readJson(dir, 'categories.json');
    categories.push({ id: 'cat-web', slug: 'web-2', name: 'Dup id', parentId: null, active: true });
    categories.push({ id: 'cat-web-3', slug: 'wordpress', name: 'Dup slug', parentId: null, active: true });
    categories.push({ id: 'cat-orphan', slug: 'orphan', name: 'Orphan', parentId: 'cat-missing', active: true });
    categories.push({ id: 'cat-a', slug: 'a', name: 'A', parentId: 'cat-b', active: true });
    categories.push({ id: 'cat-b', slug: 'b', name: 'B', parentId: 'cat-a', active: true });
    categories.push({ id: 'cat-self', slug: 'self', name: 'Self', parentId: 'cat-self', active: true });
    writeJson(dir, 'categories.json', categories);
    expect(await failures(dir)).toEqual([
      'categories.json[5]: field "id": duplicate id "cat-web" (first at index 0)',
      'categories.json[6]: field "slug": duplicate slug "wordpress" (first at index 1)',
      'categories.json[7]: field "parentId": unknown parent category "cat-missing"',
      'categories.json[8]: field "parentId": parent chain loops back to "cat-a" (categories must form a tree)',
      'categories.json[9]: field "parentId": parent chain loops back to "cat-b" (categories must form a tree)',
      'categories.json[10]: field "parentId": parent chain loops back to "cat-self" (categories must form a tree)',
    ]);
  });

  it('reports with an unknown categorySlug or a duplicate slug', async () => {
    const dir = dataset();
    const reports = readJson(dir, 'reports.json');
    writeJson(dir, 'reports.json', [...reports, { ...reports[0], categorySlug: 'gardening' }, { ...reports[0], title: 'again' }]);
    expect(await failures(dir)).toEqual([
      'reports.json[1]: field "slug": duplicate slug "web-development-indonesia-2026" (first at index 0)',
      'reports.json[2]: field "slug": duplicate slug "web-development-indonesia-2026" (first at index 0)',
    ]);
    writeJson(dir, 'reports.json', [{ ...reports[0], categorySlug: 'gardening' }]);
    expect(await failures(dir)).toEqual(['reports.json[0]: field "categorySlug": unknown category slug "gardening"']);
  });

  it('caps the message list and counts the rest', async () => {
    const dir = dataset();
    const records = readNdjson(dir, 'providers.ndjson');
    const bad = Array.from({ length: 120 }, (_, i) => ({ ...records[0]!, id: `x-${i}`, slug: `x-${i}`, trustLevel: -1 }));
    writeNdjson(dir, 'providers.ndjson', [...records, ...bad]);
    const lines = await failures(dir);
    expect(lines).toHaveLength(51);
    expect(lines[50]).toBe('... and 70 more');
  });
});

describe('--skip-invalid', () => {
  it('leaves out bad records and the records that depend on them', async () => {
    const dir = dataset();
    editNdjson(dir, 'providers.ndjson', 0, (r) => ({ ...r, trustLevel: 9 })); // prv-1: its proofs go too
    editNdjson(dir, 'providers.ndjson', 1, (r) => ({ ...r, categoryIds: ['cat-child-of-orphan'] }));
    const categories = readJson(dir, 'categories.json');
    categories.push({ id: 'cat-orphan', slug: 'orphan', name: 'Orphan', parentId: 'cat-missing', active: true });
    categories.push({ id: 'cat-child-of-orphan', slug: 'child', name: 'Child', parentId: 'cat-orphan', active: true });
    writeJson(dir, 'categories.json', categories);
    const out = tempDir();
    cleanup.push(out);
    const file = path.join(out, 'x.db');
    const result = await buildSnapshot({ languageData: testLanguageData(), inputDir: dir, outFile: file, embedder: null, skipInvalid: true });
    // 2 categories (orphan, and its child), 2 providers, their 3 proofs
    expect(result.counts).toMatchObject({ providers: 6, categories: 5, proofs: 0, skipped: 7 });
    expect(result.issueCount).toBe(7);
    expect(result.issues.map((i) => `${i.file}:${i.line}:${i.field}`)).toEqual([
      'categories.json:5:parentId',
      'categories.json:6:parentId',
      'providers.ndjson:1:trustLevel',
      'providers.ndjson:2:categoryIds[0]',
      'proofs.ndjson:1:providerId',
      'proofs.ndjson:2:providerId',
      'proofs.ndjson:3:providerId',
    ]);
    expect(result.issues[4]!.message).toBe('provider "prv-1" is invalid');
    const db = new Database(file, { readonly: true });
    try {
      const slugs = (db.prepare('SELECT slug FROM providers ORDER BY rowid').all() as Array<{ slug: string }>).map((r) => r.slug);
      expect(slugs).not.toContain('kopi-digital');
      expect(slugs).not.toContain('nusantara-apps');
      expect(db.prepare('SELECT count(*) AS n FROM proofs').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM providers').get()).toEqual({ n: 6 });
      expect(db.prepare("SELECT count(*) AS n FROM categories WHERE id IN ('cat-orphan', 'cat-child-of-orphan')").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('validateDataset', () => {
  it('passes the fixture and reports a broken copy without writing anything', async () => {
    const { validateDataset } = await import('../../src/snapshot/validate-dataset.ts');
    const clean = await validateDataset(dataset());
    expect(clean).toMatchObject({ ok: true, issueCount: 0, counts: { providers: 8, categories: 5, proofs: 3, reports: 1 } });

    const dir = dataset();
    editNdjson(dir, 'proofs.ndjson', 0, (r) => ({ ...r, createdAt: 'soon' }));
    const broken = await validateDataset(dir);
    expect(broken.ok).toBe(false);
    expect(broken.counts.proofs).toBe(2);
    expect(broken.issues).toEqual([
      { file: 'proofs.ndjson', line: 1, place: 'line', field: 'createdAt', message: 'must be an ISO 8601 date-time (got "soon")' },
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(['categories.json', 'proofs.ndjson', 'providers.ndjson', 'reports.json']);

    fs.rmSync(path.join(dir, 'categories.json'));
    const missing = await validateDataset(dir);
    expect(missing.ok).toBe(false);
    expect(missing.issues[0]!.message).toBe(`not found in ${dir} (required)`);
  });
});
