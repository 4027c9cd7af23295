/**
 * dictd dictionaries (the format of Debian's dict-freedict-* packages): an
 * `.index` of `headword TAB offset TAB length` lines, offsets and lengths in
 * dictd's base64 digits, into a `.dict` body, usually gzip-compressed as
 * `.dict.dz` (dictzip is gzip with random-access chunks, so zlib reads it whole).
 *
 *   readDictd(indexText, body) -> [{headword, text}]
 *   freedictTranslations(text) -> ["peretas"] for FreeDict's "hacker /pron/ <n>\nperetas\none who ..."
 */
import zlib from 'node:zlib';

export interface DictEntry {
  headword: string;
  text: string;
}

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** dictd's base64 number ("D7v7" -> offset): most significant digit first. */
export function decodeDictdNumber(digits: string): number {
  let n = 0;
  for (const c of digits) {
    const d = DIGITS.indexOf(c);
    if (d < 0) throw new Error(`not a dictd base64 digit: "${c}" in "${digits}"`);
    n = n * 64 + d;
  }
  return n;
}

/** The body of a `.dict` or `.dict.dz` file (gzip magic 1f 8b decides). */
export function dictBody(bytes: Uint8Array): Buffer {
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : Buffer.from(bytes);
}

/** Every entry of the index, skipping dictd's own `00database...` entries. */
export function readDictd(indexText: string, body: Buffer): DictEntry[] {
  const entries: DictEntry[] = [];
  for (const line of indexText.split('\n')) {
    const [headword, offset, length] = line.split('\t');
    if (!headword || offset === undefined || length === undefined || headword.startsWith('00database')) continue;
    const start = decodeDictdNumber(offset);
    entries.push({ headword, text: body.subarray(start, start + decodeDictdNumber(length)).toString('utf8') });
  }
  return entries;
}

/**
 * The translations of a FreeDict entry. After the header line (headword,
 * pronunciation, <part of speech>), senses alternate a translation line
 * ("peretas", or "1. serangan, anfal" when numbered) and an English gloss line.
 * The first line after the header and every numbered line are translations;
 * parenthesized notes are dropped.
 */
export function freedictTranslations(text: string): string[] {
  const lines = text.split('\n').slice(1);
  const out: string[] = [];
  lines.forEach((line, i) => {
    const numbered = /^\s*\d+\.\s/.test(line);
    if (i !== 0 && !numbered) return;
    const cleaned = line
      .replace(/^\s*\d+\.\s*/, '')
      .replace(/\s+\d+\.\s*$/, '') // the next sense's number, glued on when its translation is missing
      .replace(/\([^)]*\)/g, ' ');
    for (const part of cleaned.split(/[,;]/)) {
      const t = part.trim();
      if (t && !/^\d+\.?$/.test(t)) out.push(t);
    }
  });
  return [...new Set(out)];
}
