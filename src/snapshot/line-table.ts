/**
 * dataset_lines (schema.sql): what a build read of each .ndjson dataset file, line by
 * line, so that the next build finds what changed at the cost of reading the file once
 * (line-match.ts): per line, in file order, a hash of its bytes (lineHash: the bytes
 * between the breaks, a byte-order mark before line 1 left out), its span (its raw
 * bytes: with the break, and the mark; the spans make up the file) and the row it made;
 * per group of lines, a hash of the group's raw bytes. Runs of unchanged lines are found
 * by one hash over a group's bytes; only the groups that differ are hashed line by line.
 * A group ends after a line whose hash ends in GROUP_BITS one bits (or at the end of the
 * file): about 64 lines, and a function of the file's bytes alone, so a change moves only
 * the groups around it, and an incremental build (keeping the groups it found unchanged)
 * makes the very table a full build makes. The group hashes also give the file's digest
 * in the dataset hash (dataset-hash.ts): every byte is hashed once.
 *
 * Hashes are the first 64 bits of a sha1 (about 1.7 GB/s with the CPU's SHA instructions),
 * kept as two 32-bit words: two different lines (or groups) compared by chance agree
 * with a probability of 2^-64.
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

const GROUP_BITS = 6;
const GROUP_MASK = (1 << GROUP_BITS) - 1;
/** Whether a group ends after a line of this hash (the second word's low bits). */
export const endsGroup = (lo: number): boolean => (lo & GROUP_MASK) === GROUP_MASK;

export interface LineTable {
  /** two words a line: its hash */
  hashes: Uint32Array;
  /** each line's bytes, with its break */
  spans: Uint32Array;
  /** the rowid of the row each line made (providers.rowid; for a proof, its provider's rowid); 0: none (a blank line) */
  records: Uint32Array;
  /** where each group of lines ends (the index of the line after it) */
  groupEnds: Uint32Array;
  /** two words a group: the hash of its bytes */
  groupHashes: Uint32Array;
}

/** The hash of a line's bytes (or a group's): the first 8 bytes are the ones compared. */
export const lineHash = (bytes: Buffer): Buffer => crypto.hash('sha1', bytes, 'buffer');

export const hashHi = (hash: Buffer): number => hash.readUInt32LE(0);
export const hashLo = (hash: Buffer): number => hash.readUInt32LE(4);

const EMPTY_TABLE: LineTable = {
  hashes: new Uint32Array(0),
  spans: new Uint32Array(0),
  records: new Uint32Array(0),
  groupEnds: new Uint32Array(0),
  groupHashes: new Uint32Array(0),
};

/** Words appended to a typed array that doubles as it fills. */
class Words {
  data = new Uint32Array(1024);
  length = 0;

  push(word: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = word;
  }

  pushAll(words: Uint32Array): void {
    this.reserve(words.length);
    this.data.set(words, this.length);
    this.length += words.length;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    const bigger = new Uint32Array(Math.max(2 * this.data.length, this.length + n));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** A line table written line by line as a file is read; the lines' groups are hashed here unless carried whole from a stored table. */
export class LineTableBuilder {
  private readonly hashes = new Words();
  private readonly spans = new Words();
  private readonly records = new Words();
  private readonly groupEnds = new Words();
  private readonly groupHashes = new Words();
  private run: crypto.Hash | null = null;

  get lines(): number {
    return this.spans.length;
  }

  /** A line read, `raw` its raw bytes. */
  line(hash: Buffer, raw: Buffer, record: number): void {
    const lo = hashLo(hash);
    this.hashes.push(hashHi(hash));
    this.hashes.push(lo);
    this.spans.push(raw.length);
    this.records.push(record);
    this.run ??= crypto.createHash('sha1');
    this.run.update(raw);
    if (endsGroup(lo)) this.closeGroup();
  }

  /**
   * Group `g` of a stored table, found unchanged (`raw` its bytes): its lines as they are,
   * and its hash too when it starts a group here (it ends one: its last line ends a group,
   * or was the last of the stored file).
   */
  carry(from: LineTable, g: number, raw: Buffer): void {
    const start = g === 0 ? 0 : from.groupEnds[g - 1]!;
    const end = from.groupEnds[g]!;
    this.hashes.pushAll(from.hashes.subarray(2 * start, 2 * end));
    this.spans.pushAll(from.spans.subarray(start, end));
    this.records.pushAll(from.records.subarray(start, end));
    const ends = endsGroup(from.hashes[2 * end - 1]!);
    if (!this.run && ends) {
      this.groupEnds.push(this.lines);
      this.groupHashes.push(from.groupHashes[2 * g]!);
      this.groupHashes.push(from.groupHashes[2 * g + 1]!);
      return;
    }
    this.run ??= crypto.createHash('sha1');
    this.run.update(raw);
    if (ends) this.closeGroup();
  }

  /** The row line `index` (0-based) made, known after it was read. */
  setRecord(index: number, record: number): void {
    this.records.data[index] = record;
  }

  finish(): LineTable {
    this.closeGroup();
    return { hashes: this.hashes.done(), spans: this.spans.done(), records: this.records.done(), groupEnds: this.groupEnds.done(), groupHashes: this.groupHashes.done() };
  }

  private closeGroup(): void {
    if (!this.run) return;
    const hash = this.run.digest();
    this.run = null;
    this.groupEnds.push(this.lines);
    this.groupHashes.push(hashHi(hash));
    this.groupHashes.push(hashLo(hash));
  }
}

export const INSERT_PROOF_LINE_SQL = 'INSERT OR REPLACE INTO proof_lines (id, hash) VALUES (?, ?)';

const bytesOf = (a: Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
/** A stored column as words (a copy: SQLite's buffer need not be aligned). */
const wordsOf = (b: Buffer) => {
  const out = new Uint32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
};

export function writeLineTable(db: Database.Database, file: string, table: LineTable): void {
  db.prepare('INSERT OR REPLACE INTO dataset_lines (file, hashes, spans, records, group_ends, group_hashes) VALUES (?, ?, ?, ?, ?, ?)').run(
    file, bytesOf(table.hashes), bytesOf(table.spans), bytesOf(table.records), bytesOf(table.groupEnds), bytesOf(table.groupHashes),
  );
}

/** The stored table of `file`; empty when the build read no such file. */
export function readLineTable(db: Database.Database, file: string): LineTable {
  const row = db.prepare<[string], Record<'hashes' | 'spans' | 'records' | 'group_ends' | 'group_hashes', Buffer>>('SELECT hashes, spans, records, group_ends, group_hashes FROM dataset_lines WHERE file = ?').get(file);
  if (!row) return EMPTY_TABLE;
  return { hashes: wordsOf(row.hashes), spans: wordsOf(row.spans), records: wordsOf(row.records), groupEnds: wordsOf(row.group_ends), groupHashes: wordsOf(row.group_hashes) };
}
