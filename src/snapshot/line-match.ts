/**
 * Which lines of a dataset file are lines a stored line table (line-table.ts) holds,
 * read once and hashed mostly group by group: the incremental scan's first step
 * (incremental-scan.ts). The scan expects the stored lines in their order: where a
 * stored group starts at the expected line and the next bytes are its bytes (one hash
 * over them), the group's lines are kept whole; else the next line is hashed and is
 * either the expected line, or found by its hash among all the stored record lines (a
 * line moved, or lines removed before it: the expectation follows it), or fresh.
 * A stored record line is kept once, by the first line that matches it; a line
 * repeated after it is fresh (and will be reported as a duplicate).
 */
import type { LineReader } from './dataset-lines.ts';
import { withoutBreak } from './dataset-lines.ts';
import { LineHashIndex } from './line-hash-index.ts';
import { hashHi, hashLo, lineHash, LineTableBuilder, type LineTable } from './line-table.ts';

/** A line to parse: no stored record line kept as it is. */
export interface FreshLine {
  line: number;
  /** the line as text, trimmed (never empty: blank lines are no fresh lines) */
  text: string;
  /** its lineHash */
  hash: Buffer;
}

export interface FileMatch {
  /** per stored line, the number of the line that keeps it; 0: not kept (changed, gone, or no record) */
  keptAt: Uint32Array;
  /** in line order */
  fresh: FreshLine[];
  /** the file's line table as read; the fresh lines' records are 0 until set */
  table: LineTableBuilder;
  /** the stored record line of a line hash (its two words), or -1 */
  storedLineOf(hi: number, lo: number): number;
}

/**
 * `keep(i)`: whether stored record line i, found unchanged, is kept (a proof whose provider
 * is gone is not: it is parsed again). `onFresh(n)` is told the number of fresh lines so far.
 */
export function matchLines(reader: LineReader, stored: LineTable, keep: (index: number) => boolean, onFresh: (count: number) => void): FileMatch {
  const n = stored.spans.length;
  const groups = stored.groupEnds.length;
  const { hashes, records, groupEnds, groupHashes } = stored;
  let recordLines = 0;
  for (let i = 0; i < n; i++) if (records[i] !== 0) recordLines++;
  const index = new LineHashIndex(recordLines);
  for (let i = 0; i < n; i++) if (records[i] !== 0) index.add(hashes[2 * i]!, hashes[2 * i + 1]!, i);
  const groupBytes = new Float64Array(groups);
  for (let g = 0, i = 0; g < groups; g++) for (; i < groupEnds[g]!; i++) groupBytes[g]! += stored.spans[i]!;

  const keptAt = new Uint32Array(n);
  const fresh: FreshLine[] = [];
  const table = new LineTableBuilder();
  const addFresh = (line: number, bytes: Buffer, hash: Buffer | null) => {
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    fresh.push({ line, text, hash: Buffer.from(hash ?? lineHash(bytes)) });
    onFresh(fresh.length);
  };
  /** The group that starts at stored line `i`, or -1. */
  const groupAt = (i: number): number => {
    if (i === 0) return groups > 0 ? 0 : -1;
    let lo = 0;
    let hi = groups - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (groupEnds[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return groupEnds[lo] === i && lo + 1 < groups ? lo + 1 : -1;
  };
  /** Keeps group g whole if the next bytes are its bytes. */
  const carry = (g: number, start: number): boolean => {
    const end = groupEnds[g]!;
    for (let i = start; i < end; i++) if (keptAt[i] !== 0) return false;
    const raw = reader.peek(groupBytes[g]!);
    if (!raw) return false;
    const hash = lineHash(raw);
    if (hashHi(hash) !== groupHashes[2 * g] || hashLo(hash) !== groupHashes[2 * g + 1]) return false;
    const first = reader.line + 1;
    const at = table.lines;
    table.carry(stored, g, raw);
    let offset = 0;
    for (let i = start; i < end; i++) {
      const span = stored.spans[i]!;
      if (records[i] !== 0 && keep(i)) keptAt[i] = first + i - start;
      else {
        table.setRecord(at + i - start, 0);
        addFresh(first + i - start, withoutBreak(raw.subarray(offset, offset + span), first + i - start), null);
      }
      offset += span;
    }
    reader.skip(raw.length, end - start);
    return true;
  };

  let expected = 0;
  for (;;) {
    const g = expected < n ? groupAt(expected) : -1;
    if (g >= 0 && carry(g, expected)) {
      expected = groupEnds[g]!;
      continue;
    }
    const l = reader.next();
    if (!l) break;
    const hash = lineHash(l.bytes);
    const hi = hashHi(hash);
    const lo = hashLo(hash);
    let at = -1;
    if (expected < n && keptAt[expected] === 0 && hashes[2 * expected] === hi && hashes[2 * expected + 1] === lo) at = expected;
    else {
      const found = index.find(hi, lo);
      if (found >= 0 && keptAt[found] === 0) at = found;
    }
    if (at >= 0) expected = at + 1;
    if (at >= 0 && records[at] !== 0 && keep(at)) {
      keptAt[at] = reader.line;
      table.line(hash, l.raw, records[at]!);
    } else {
      table.line(hash, l.raw, 0);
      addFresh(reader.line, l.bytes, hash);
    }
  }
  return { keptAt, fresh, table, storedLineOf: (hi, lo) => index.find(hi, lo) };
}
