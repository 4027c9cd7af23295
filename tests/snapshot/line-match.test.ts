/**
 * The incremental scan's line matching (src/snapshot/line-match.ts) and the line splitter
 * under it (dataset-lines.ts), held to plain definitions: the lines are readline's; a
 * stored record line is kept by the first line of the new file with its bytes, every
 * other non-blank line is fresh; the table made while matching is the table of the new
 * file, with groups whose hashes are the hashes of their bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { LineReader } from '../../src/snapshot/dataset-lines.ts';
import { matchLines } from '../../src/snapshot/line-match.ts';
import { endsGroup, hashHi, hashLo, lineHash, LineTableBuilder, type LineTable } from '../../src/snapshot/line-table.ts';
import { tempDir } from './fixture.ts';

const work = tempDir('line-match-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
let files = 0;

function write(content: string | Buffer): string {
  const file = path.join(work, `f${files++}.ndjson`);
  fs.writeFileSync(file, content);
  return file;
}

/** Lines as the reader gives them: texts, and raw spans. */
function readAll(file: string): { texts: string[]; raws: Buffer[] } {
  const reader = new LineReader(file);
  const texts: string[] = [];
  const raws: Buffer[] = [];
  for (let l = reader.next(); l; l = reader.next()) {
    texts.push(l.bytes.toString('utf8'));
    raws.push(Buffer.from(l.raw));
  }
  return { texts, raws };
}

/** The table a full build makes of a file, each non-blank line's record its line number. */
function tableOf(file: string): LineTable {
  const reader = new LineReader(file);
  const table = new LineTableBuilder();
  for (let l = reader.next(); l; l = reader.next()) table.line(lineHash(l.bytes), l.raw, l.bytes.toString().trim() === '' ? 0 : reader.line);
  return table.finish();
}

const providerLine = (i: number) => JSON.stringify({ id: `p${i}`, slug: `s-${i}`, text: 'x'.repeat(i % 50) });
const lines = (n: number) => Array.from({ length: n }, (_, i) => providerLine(i + 1));

describe('LineReader', () => {
  it('gives the lines readline gives: \\n, \\r\\n and lone \\r breaks, a byte-order mark left out, no line after the last break', async () => {
    const contents = ['', '\n', 'a', 'a\n', 'a\r\nb', 'a\rb\r', 'a\r\r\nb\n\n', '\uFEFFa\nb', '\n\n a \n', 'é\r\n€\n'];
    for (const content of contents) {
      const file = write(content);
      const expected: string[] = [];
      for await (const text of readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity })) expected.push(expected.length === 0 ? text.replace(/^\uFEFF/, '') : text);
      const got = readAll(file);
      expect({ content, lines: got.texts }).toEqual({ content, lines: expected });
      expect(Buffer.concat(got.raws).toString()).toBe(content);
    }
  });
});

/** The plain definition of the match of `next` against the stored table of `before`. */
function reference(before: string, next: string) {
  const stored = readAll(before).texts;
  const storedLine = new Map<string, number>();
  stored.forEach((text, i) => text.trim() !== '' && storedLine.set(text, i));
  const keptAt = new Array<number>(stored.length).fill(0);
  const fresh: number[] = [];
  readAll(next).texts.forEach((text, i) => {
    const at = storedLine.get(text);
    if (at !== undefined && keptAt[at] === 0) keptAt[at] = i + 1;
    else if (text.trim() !== '') fresh.push(i + 1);
  });
  return { keptAt, fresh };
}

function check(name: string, before: string, next: string) {
  const stored = tableOf(before);
  const reader = new LineReader(next);
  const match = matchLines(reader, stored, () => true, () => {});
  const expected = reference(before, next);
  expect({ name, keptAt: [...match.keptAt], fresh: match.fresh.map((l) => l.line) }).toEqual({ name, ...expected });
  const { texts, raws } = readAll(next);
  for (const l of match.fresh) expect(l.text).toBe(texts[l.line - 1]!.trim());
  // the table made is the one a full read makes: its lines' hashes and spans, its groups, the kept lines' records
  const table = match.table.finish();
  const fromScratch = tableOf(next);
  const shape = (t: LineTable) => ({ name, hashes: [...t.hashes], spans: [...t.spans], groupEnds: [...t.groupEnds], groupHashes: [...t.groupHashes] });
  expect(shape(table)).toEqual(shape(fromScratch));
  const records = texts.map((_, i) => {
    const at = expected.keptAt.indexOf(i + 1);
    return at >= 0 ? stored.records[at]! : 0;
  });
  expect({ name, records: [...table.records] }).toEqual({ name, records });
  // every group's hash is the hash of its lines' bytes; a group ends after a line whose hash says so, or at the end
  let start = 0;
  table.groupEnds.forEach((end, g) => {
    const hash = lineHash(Buffer.concat(raws.slice(start, end)));
    expect({ name, g, hash: [table.groupHashes[2 * g], table.groupHashes[2 * g + 1]] }).toEqual({ name, g, hash: [hashHi(hash), hashLo(hash)] });
    for (let i = start; i < end - 1; i++) expect(endsGroup(table.hashes[2 * i + 1]!)).toBe(false);
    expect(endsGroup(table.hashes[2 * end - 1]!) || end === texts.length).toBe(true);
    start = end;
  });
  expect(start).toBe(texts.length);
  return match;
}

describe('matchLines', () => {
  const n = 1000;
  const base = lines(n);
  const before = write(`${base.join('\n')}\n`);
  const edit = (f: (l: string[]) => void, join = '\n') => {
    const l = [...base];
    f(l);
    return write(`${l.join(join)}\n`);
  };

  it('keeps an unchanged file whole, by its groups', () => {
    const match = check('unchanged', before, edit(() => {}));
    expect(match.fresh).toEqual([]);
    expect(match.table.finish().groupEnds.length).toBeGreaterThan(5);
  });

  it('finds edited, inserted, removed, moved and repeated lines', () => {
    const cases: Array<[string, (l: string[]) => void]> = [
      ['one line edited', (l) => void (l[100] = providerLine(9999))],
      ['the first and the last line edited', (l) => { l[0] = providerLine(9998); l[n - 1] = providerLine(9999); }],
      ['a line inserted', (l) => void l.splice(70, 0, providerLine(9999))],
      ['a line removed', (l) => void l.splice(70, 1)],
      ['a block of 100 lines removed', (l) => void l.splice(30, 100)],
      ['two lines swapped', (l) => void ([l[10], l[200]] = [l[200]!, l[10]!])],
      ['the last line moved first', (l) => void l.unshift(l.pop()!)],
      ['a line repeated further down', (l) => void l.splice(250, 0, l[3]!)],
      ['a line repeated further up', (l) => void l.splice(3, 0, l[250]!)],
      ['blank lines inserted', (l) => void l.splice(64, 0, '', '   ')],
      ['every line edited', (l) => l.forEach((_, i) => (l[i] = providerLine(10_000 + i)))],
      ['all lines gone', (l) => void l.splice(0, n)],
    ];
    for (const [name, f] of cases) check(name, before, edit(f));
  });

  it('matches lines whose breaks or byte-order mark changed, and a last line without a break', () => {
    check('CRLF breaks', before, edit(() => {}, '\r\n'));
    check('lone CR breaks', before, edit(() => {}, '\r'));
    check('a byte-order mark added', before, write(`\uFEFF${base.join('\n')}\n`));
    check('no break after the last line', before, write(base.join('\n')));
    const noBreak = write(base.join('\n'));
    check('a break after a last line that had none', noBreak, before);
    check('a line appended to a last line that had no break', noBreak, write(`${base.join('\n')}\n${providerLine(9999)}\n`));
    check('the last line extended', noBreak, write(`${base.join('\n')}x\n`));
  });

  it('parses a stored line again when it is not kept (a proof whose provider is gone)', () => {
    const stored = tableOf(before);
    const match = matchLines(new LineReader(edit(() => {})), stored, (i) => i !== 5 && i !== 200, () => {});
    expect(match.fresh.map((l) => l.line)).toEqual([6, 201]);
    expect([match.keptAt[5], match.keptAt[200], match.keptAt[6]]).toEqual([0, 0, 7]);
    expect(match.fresh[0]!.hash.subarray(0, 8)).toEqual(lineHash(Buffer.from(base[5]!)).subarray(0, 8));
  });
});
