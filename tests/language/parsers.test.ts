/**
 * The language data parsers on small files written here in each package's
 * format (dictd index + gzip body, MyThes .dat in ISO-8859-1, WordNet data and
 * index lines), plus the installed packages when present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeDictdNumber, dictBody, freedictTranslations, readDictd } from '../../src/language/dictd.ts';
import { readMythes } from '../../src/language/mythes.ts';
import { DEBIAN_PATHS, describeSources, loadLanguageData } from '../../src/language/sources.ts';
import { englishStem, indonesianStem } from '../../src/language/stem.ts';
import { readWordnetIndex, readWordnetSynsets } from '../../src/language/wordnet.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const encode = (n: number) => {
  let out = '';
  do {
    out = B64[n % 64] + out;
    n = Math.floor(n / 64);
  } while (n > 0);
  return out;
};

/** A dictd pair (index text, gzip body) from entries written in FreeDict's layout. */
function dictd(entries: [string, string][]): { index: string; body: Buffer } {
  let body = '';
  const lines = ['00databaseinfo\tA\tB'];
  for (const [headword, text] of entries) {
    lines.push(`${headword}\t${encode(Buffer.byteLength(body))}\t${encode(Buffer.byteLength(text))}`);
    body += text;
  }
  return { index: lines.join('\n') + '\n', body: zlib.gzipSync(Buffer.from(body)) };
}

describe('dictd (FreeDict)', () => {
  it('decodes dictd base64 numbers', () => {
    expect(decodeDictdNumber('A')).toBe(0);
    expect(decodeDictdNumber('B')).toBe(1);
    expect(decodeDictdNumber('BA')).toBe(64);
    expect(decodeDictdNumber('D7v7')).toBe(3 * 64 ** 3 + 59 * 64 ** 2 + 47 * 64 + 59);
    expect(() => decodeDictdNumber('A!')).toThrow(/not a dictd base64 digit/);
  });

  it('reads entries through the index from a gzip body, skipping 00database entries', () => {
    const { index, body } = dictd([
      ['hacker', 'hacker //hækə(ɹ)// <n>\nperetas\none who uses a computer to gain unauthorized access\n'],
      ['attack', 'attack //əˈtæk// <n>\n1. serangan, anfal\nmedicine: sudden onset\n2. serang, serbu\noffense of a battle\n'],
    ]);
    const entries = readDictd(index, dictBody(body));
    expect(entries.map((e) => e.headword)).toEqual(['hacker', 'attack']);
    expect(freedictTranslations(entries[0]!.text)).toEqual(['peretas']);
    expect(freedictTranslations(entries[1]!.text)).toEqual(['serangan', 'anfal', 'serang', 'serbu']);
    expect(dictBody(Buffer.from('plain')).toString()).toBe('plain');
  });

  it('drops notes in parentheses and sense numbers glued to a missing translation', () => {
    expect(freedictTranslations('centric <suffix>\nsentris 2.\nhaving centres\n 3.\nhaving an object\n')).toEqual(['sentris']);
    expect(freedictTranslations('website <n>\nsitus web (internet)\na collection of pages\n')).toEqual(['situs web']);
  });
});

describe('MyThes', () => {
  it('reads senses in the declared encoding and skips antonyms', () => {
    const dat = Buffer.from('ISO-8859-1\nabadi|2\n[a]|awet|kekal|lestari\n[ant]|sementara\ncafé|1\n(noun)|kedai|warung (kopi)\n', 'latin1');
    const thesaurus = readMythes(dat);
    expect(thesaurus.get('abadi')).toEqual([['awet', 'kekal', 'lestari']]);
    expect(thesaurus.get('café')).toEqual([['kedai', 'warung']]);
  });
});

describe('WordNet', () => {
  it('reads synsets by offset and lemmas with their senses in order, skipping the licence', () => {
    const data = '  1 This software and database is being provided\n10154601 18 n 03 hack 0 drudge 1 hacker 0 003 @ 09632274 n 0000 | one who works hard\n10154871 18 n 01 hacker 1 002 @ 10481268 n 0000 | a programmer\n00123456 00 s 02 well-known(a) 0 famous 0 000 | widely known\n';
    const synsets = readWordnetSynsets(data);
    expect(synsets.get(10154601)).toEqual(['hack', 'drudge', 'hacker']);
    expect(synsets.get(123456)).toEqual(['well-known', 'famous']);
    const index = readWordnetIndex('  1 licence\nhacker n 2 2 @ ~ 2 1 10154871 10154601  \nweb_site n 1 1 @ 1 0 06359193  \n');
    expect(index.get('hacker')).toEqual([10154871, 10154601]);
    expect(index.get('web site')).toEqual([6359193]);
  });
});

describe('stemmers (word forms, not linguistics)', () => {
  it('meets English forms of one word', () => {
    expect(englishStem('hacker')).toBe(englishStem('hacking'));
    expect(englishStem('attackers')).toBe(englishStem('attack'));
    expect(englishStem('advertisement')).toBe(englishStem('advertising'));
    expect(englishStem('web')).toBe('web');
  });
  it('meets Indonesian forms of one word', () => {
    expect(indonesianStem('dipakai')).toBe(indonesianStem('pakai'));
    expect(indonesianStem('pengembangan')).toBe(indonesianStem('mengembangkan'));
    expect(indonesianStem('toko')).toBe('toko');
  });
});

describe('language data from the Debian packages', () => {
  it('works without any of them, and says so in one line', () => {
    const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), 'no-language-data-'));
    const paths = { freedictEngInd: { index: path.join(nowhere, 'x.index'), dict: path.join(nowhere, 'x.dict.dz') }, mythesId: path.join(nowhere, 'th.dat'), wordnetDir: nowhere };
    const data = loadLanguageData(paths);
    expect(data.edges).toEqual([]);
    expect(data.sources.every((s) => !s.used)).toBe(true);
    expect(describeSources(data.sources)).toBe('language data: dict-freedict-eng-ind not installed, mythes-id not installed, wordnet-base not installed');
    fs.rmSync(nowhere, { recursive: true, force: true });
  });

  it('reads the installed packages (CI installs them: .ci/run)', () => {
    const data = loadLanguageData(DEBIAN_PATHS);
    expect(data.sources.map((s) => s.used)).toEqual([true, true, true]);
    expect(data.sources.every((s) => s.entries > 1000)).toBe(true);
    const linked = (a: string, b: string) => data.edges.some((e) => (e.a === a && e.b === b) || (e.a === b && e.b === a));
    expect(linked('hacker', 'peretas')).toBe(true); // FreeDict eng-ind
    expect(linked('network', 'jaringan')).toBe(true);
    expect(describeSources(data.sources)).toMatch(/^language data: dict-freedict-eng-ind used \(\d+ entries\), mythes-id used/);
  });
});
