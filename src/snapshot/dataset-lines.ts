/**
 * The lines of an .ndjson file as raw bytes, for the incremental scan (incremental-scan.ts),
 * which hashes most lines and parses only the few it has not seen: no UTF-8 decoding, no
 * string per line. Lines and their numbers are the ones the reader's readline gives
 * (dataset-files.ts): breaks at \n, \r\n and a lone \r; a byte-order mark on line 1 left
 * out; no empty line after the last break. `bytes` is a view into a reused buffer: copy
 * what is kept.
 */
import fs from 'node:fs';

const LF = 10;
const CR = 13;

export async function forEachLine(file: string, onLine: (line: number, bytes: Buffer) => void): Promise<void> {
  let line = 0;
  let carry: Buffer = Buffer.alloc(0);
  const segment = (bytes: Buffer) => {
    let part = bytes;
    for (let cr = part.indexOf(CR); cr !== -1; cr = part.indexOf(CR)) {
      onLine(++line, part.subarray(0, cr));
      part = part.subarray(cr + 1);
    }
    onLine(++line, part);
  };
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    let data = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    if (line === 0 && data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
    let start = 0;
    for (let lf = data.indexOf(LF, start); lf !== -1; lf = data.indexOf(LF, start)) {
      segment(data.subarray(start, lf > start && data[lf - 1] === CR ? lf - 1 : lf));
      start = lf + 1;
    }
    carry = Buffer.from(data.subarray(start));
  }
  if (carry.length === 0) return;
  // the last line, without a final \n: a trailing \r ends it
  segment(carry[carry.length - 1] === CR ? carry.subarray(0, carry.length - 1) : carry);
}
