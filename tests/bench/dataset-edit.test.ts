/**
 * The publish benchmark's dataset edit (bench/dataset-edit.ts): N changed providers
 * change exactly N provider lines (an added one counts), the copy passes the real
 * validator, the edits carry their markers, and the other files are hard links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEditedDataset } from '../../bench/dataset-edit.ts';
import { validateDataset } from '../../src/snapshot/validate-dataset.ts';
import { generate, workspace } from '../resilience/fixture.ts';

let ws = '';
let source = '';

const lines = (dir: string) => fs.readFileSync(path.join(dir, 'providers.ndjson'), 'utf8').split('\n').filter(Boolean);
const byId = (dir: string) => new Map(lines(dir).map((l) => [(JSON.parse(l) as { id: string }).id, l]));

/** Lines of `to` that `from` does not hold as they are (changed or new), and ids of `from` gone from `to`. */
function difference(from: string, to: string): { changed: string[]; gone: string[] } {
  const a = byId(from);
  const b = byId(to);
  return { changed: [...b].filter(([id, l]) => a.get(id) !== l).map(([id]) => id), gone: [...a.keys()].filter((id) => !b.has(id)) };
}

beforeAll(async () => {
  ws = workspace('dataset-edit');
  source = await generate(path.join(ws, 'source'), 150, 11);
});

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('writeEditedDataset', () => {
  it.each([1, 2, 10])('changes exactly %i provider lines and keeps the dataset valid', async (n) => {
    const edit = await writeEditedDataset(source, path.join(ws, `edit-${n}`), n, `t${n}`);
    const { changed, gone } = difference(source, edit.dir);
    expect(changed).toHaveLength(n);
    expect(gone).toEqual([]);
    expect(edit.changed).toBe(n);
    const report = await validateDataset(edit.dir);
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('writes text edits with markers, one unpublish and one new provider from 3 changes up', async () => {
    const edit = await writeEditedDataset(source, path.join(ws, 'edit-struct'), 6, 'ts');
    expect(edit.edits).toHaveLength(4);
    expect(new Set(edit.edits.map((e) => e.field))).toEqual(new Set(['tagline', 'description']));
    const providers = lines(edit.dir).map((l) => JSON.parse(l) as Record<string, unknown>);
    const bySlug = new Map(providers.map((p) => [p.slug as string, p]));
    for (const e of edit.edits) expect(String(bySlug.get(e.slug)![e.field])).toContain(e.marker);
    expect(bySlug.get(edit.unpublished!)!.publishedAt).toBeNull();
    expect(bySlug.get(edit.added!)!.submissionStatus).toBe('approved');
    expect(lines(edit.dir)).toHaveLength(lines(source).length + 1);
    const { changed } = difference(source, edit.dir);
    expect(changed).toHaveLength(6);
  });

  it('hard-links every file but providers.ndjson, and a salt picks other providers', async () => {
    const a = await writeEditedDataset(source, path.join(ws, 'salt-0'), 5, 'sa', 0);
    const b = await writeEditedDataset(source, path.join(ws, 'salt-3'), 5, 'sb', 3);
    for (const name of fs.readdirSync(source).filter((f) => f !== 'providers.ndjson')) {
      expect(fs.statSync(path.join(a.dir, name)).ino).toBe(fs.statSync(path.join(source, name)).ino);
    }
    expect(fs.statSync(path.join(a.dir, 'providers.ndjson')).ino).not.toBe(fs.statSync(path.join(source, 'providers.ndjson')).ino);
    const slugs = (e: typeof a) => new Set(e.edits.map((x) => x.slug));
    expect([...slugs(a)].filter((s) => slugs(b).has(s))).toEqual([]);
  });

  it('refuses more changes than there are published providers', async () => {
    await expect(writeEditedDataset(source, path.join(ws, 'too-many'), 10_000, 'tm')).rejects.toThrow('published providers');
  });
});
