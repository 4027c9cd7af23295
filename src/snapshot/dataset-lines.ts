/**
 * The lines of an .ndjson dataset file as raw bytes, read in large chunks with
 * readSync: the one line splitter of the builds (the full reader, dataset-files.ts,
 * and the incremental scan, line-match.ts). Lines and their numbers are what readline
 * would give: breaks at \n, \r\n and a lone \r; a byte-order mark before line 1 left
 * out; no empty line after the last break. Each line also has its raw bytes: with its
 * break (and line 1 with the byte-order mark), so that the raw lines make up the file and
 * a run of lines can be compared by one hash over their bytes and skipped whole (peek, skip).
 *
 * The buffers handed out are views into a buffer the next read reuses: copy what is kept.
 */
import fs from 'node:fs';

const LF = 10;
const CR = 13;
const CHUNK = 8 << 20;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface Line {
  /** the line's bytes, without its break (nor, on line 1, the byte-order mark) */
  bytes: Buffer;
  /** the line's bytes with its break (and, on line 1, the byte-order mark) */
  raw: Buffer;
}

/** A line's bytes from its raw bytes: the break cut off, and on line 1 the byte-order mark. */
export function withoutBreak(raw: Buffer, line: number): Buffer {
  let end = raw.length;
  if (raw[end - 1] === LF) end -= end > 1 && raw[end - 2] === CR ? 2 : 1;
  else if (raw[end - 1] === CR) end--;
  const start = line === 1 && end >= 3 && raw.subarray(0, 3).equals(BOM) ? 3 : 0;
  return raw.subarray(start, end);
}

export class LineReader {
  /** the number of the last line read (0 before the first) */
  line = 0;
  private readonly fd: number;
  private buffer = Buffer.allocUnsafe(CHUNK);
  private start = 0;
  private end = 0;
  private eof = false;
  /** the next \r at or after `start`, -1 when none before `end` (searched again after a read) */
  private nextCr = -2;
  private open = true;
  /** bytes of a byte-order mark at the start of line 1 */
  private bom = 0;

  constructor(file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      this.fill(3);
      if (this.end >= 3 && this.buffer.subarray(0, 3).equals(BOM)) this.bom = 3;
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /** The next line, or null at the end of the file. */
  next(): Line | null {
    for (;;) {
      const data = this.buffer.subarray(0, this.end);
      const lf = data.indexOf(LF, this.start);
      if (this.nextCr !== -1 && this.nextCr < this.start) this.nextCr = data.indexOf(CR, this.start);
      const cr = this.nextCr;
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      let span: number;
      if (at === -1 || (at === this.end - 1 && data[at] === CR && !this.eof)) {
        // no break in what is read, or a \r whose next byte is not read yet
        if (!this.eof) {
          this.fill(this.end - this.start + 1);
          continue;
        }
        if (this.start === this.end) return this.finish();
        span = this.end - this.start;
      } else span = at - this.start + (data[at] === CR && data[at + 1] === LF ? 2 : 1);
      const raw = data.subarray(this.start, this.start + span);
      const bytes = data.subarray(this.line === 0 ? this.bom : this.start, at === -1 ? this.end : at);
      this.start += span;
      this.line++;
      return { bytes, raw };
    }
  }

  /**
   * The next `span` bytes when they end a line as they are (with a break, and a \r not
   * followed by \n, or at the end of the file), else null. For skipping a run of lines
   * known by its length and hash.
   */
  peek(span: number): Buffer | null {
    if (this.end - this.start < span + 1 && !this.eof) this.fill(span + 1);
    const available = this.end - this.start;
    if (span === 0 || available < span) return null;
    const last = this.buffer[this.start + span - 1];
    const atEnd = available === span && this.eof;
    if (last === LF || (last === CR && (atEnd || this.buffer[this.start + span] !== LF)) || atEnd) return this.buffer.subarray(this.start, this.start + span);
    return null;
  }

  /** Skips `span` bytes (a peek's) holding `lines` lines. */
  skip(span: number, lines: number): void {
    this.start += span;
    this.line += lines;
  }

  /** Closes the file (read to its end or not). */
  close(): void {
    if (this.open) fs.closeSync(this.fd);
    this.open = false;
  }

  private finish(): null {
    this.close();
    return null;
  }

  /** Reads until at least `want` bytes from `start` are in the buffer, or the file ends. */
  private fill(want: number): void {
    if (this.start > 0) {
      this.buffer.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      if (this.nextCr >= 0) this.nextCr -= this.start;
      this.start = 0;
    }
    if (want > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(want, 2 * this.buffer.length));
      this.buffer.copy(bigger, 0, 0, this.end);
      this.buffer = bigger;
    }
    while (this.end < want && !this.eof) {
      const n = fs.readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null);
      if (n === 0) this.eof = true;
      this.end += n;
    }
    // a \r searched for before the read may be in the bytes just read
    if (this.nextCr === -1) this.nextCr = -2;
  }
}
