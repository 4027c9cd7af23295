/**
 * Princeton WordNet 3.0 database files (Debian's wordnet-base, /usr/share/wordnet):
 * `data.POS` holds one synset per line (`offset lex_filenum ss_type w_cnt word lex_id
 * ... | gloss`, w_cnt in hex), `index.POS` one lemma per line with its synset
 * offsets, most frequent sense first. Lines starting with two spaces are the licence.
 *
 *   readWordnetSynsets(dataText) -> Map(offset -> ["hack", "drudge", "hacker"])
 *   readWordnetIndex(indexText) -> Map("hacker" -> [offset of sense 1, sense 2, ...])
 */

/** Lemmas are written with underscores for spaces and, for adjectives, a marker such as "(a)". */
const lemma = (word: string) => word.replace(/\(\w+\)$/, '').replaceAll('_', ' ').toLowerCase();

export function readWordnetSynsets(dataText: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const line of dataText.split('\n')) {
    if (line.length === 0 || line.startsWith('  ')) continue;
    // Only the head of the line: offset, lex file, type, word count, then the words (pointers and gloss follow).
    const fields = line.slice(0, line.indexOf(' | ') >>> 0).split(' ', 4 + 2 * 256);
    const count = parseInt(fields[3]!, 16);
    if (!Number.isFinite(count)) continue;
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(lemma(fields[4 + 2 * i]!));
    out.set(Number(fields[0]), [...new Set(words)]);
  }
  return out;
}

export function readWordnetIndex(indexText: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const line of indexText.split('\n')) {
    if (line.length === 0 || line.startsWith('  ')) continue;
    const fields = line.trim().split(' ');
    // lemma pos synset_cnt p_cnt [ptr_symbol x p_cnt] sense_cnt tagsense_cnt offsets...
    const synsets = Number(fields[2]);
    const pointers = Number(fields[3]);
    const offsets = fields.slice(4 + pointers + 2).map(Number);
    if (offsets.length !== synsets) continue;
    out.set(lemma(fields[0]!), offsets);
  }
  return out;
}
