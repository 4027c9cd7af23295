/**
 * MyThes thesauri (Debian's mythes-* packages, LibreOffice's format): a `.dat`
 * file whose first line names its encoding, then per word `word|senses` and one
 * line per sense: `(pos)|synonym|synonym...` (`[n]|...` in mythes-id). Lines
 * marked as antonyms (`[ant]`, `(antonym)`) are not synonyms and are skipped.
 *
 *   readMythes(bytes) -> Map(word -> [[synonyms of sense 1], [sense 2], ...])
 */
import { TextDecoder } from 'node:util';

const ANTONYM = /^[[(](?:ant|antonym)[\])]$/i;

export function readMythes(bytes: Uint8Array): Map<string, string[][]> {
  const firstNewline = bytes.indexOf(0x0a);
  const encoding = Buffer.from(bytes.subarray(0, firstNewline)).toString('latin1').trim().toLowerCase();
  const text = new TextDecoder(encoding === 'iso-8859-1' ? 'latin1' : encoding).decode(bytes.subarray(firstNewline + 1));
  const lines = text.split('\n');
  const out = new Map<string, string[][]>();
  for (let i = 0; i < lines.length; ) {
    const [word, count] = lines[i]!.split('|');
    const senses = Number(count);
    i++;
    if (!word || !Number.isInteger(senses)) continue;
    const list: string[][] = [];
    for (let s = 0; s < senses && i < lines.length; s++, i++) {
      const [pos, ...synonyms] = lines[i]!.split('|');
      if (pos === undefined || ANTONYM.test(pos.trim())) continue;
      const cleaned = synonyms.map((x) => x.replace(/\([^)]*\)/g, ' ').trim()).filter((x) => x.length > 0);
      if (cleaned.length > 0) list.push(cleaned);
    }
    if (list.length > 0) out.set(word.trim(), list);
  }
  return out;
}
