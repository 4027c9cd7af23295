/**
 * How text becomes tokens, once for everyone: the snapshot builder (postings, the
 * embedder, the lexicon) and every reader (search, recommend) fold and split text
 * with these functions, so a query token is always spelled as the index spells it.
 * A request is read with `tokenize` (once per request, by src/query/nl-query.ts);
 * documents and lexicon phrases with `normalizeTokens`. Both give the same tokens.
 */
/** Lowercase, NFKD, strip diacritics, split on anything that is not a letter or digit. */
export function normalizeTokens(text: string): string[] {
  const folded = foldText(text);
  const tokens = folded.split(isAscii(folded) ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u);
  return tokens.filter((t) => t.length > 0);
}

/** normalizeTokens' folding without the split: lowercase, NFKD, diacritics stripped. */
export function foldText(text: string): string {
  // Most text is ASCII: skip Unicode folding for it (same result, several times faster).
  return isAscii(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

const ASCII = /^[\x00-\x7f]*$/;
export const isAscii = (text: string): boolean => ASCII.test(text);

/** A text read into tokens, with where each token lies, so parts of it can be left out without reading it again. */
export interface TokenizedText {
  readonly text: string;
  /** foldText(text) */
  readonly folded: string;
  /** normalizeTokens(text) */
  readonly tokens: readonly string[];
  /** where each token starts in `folded` */
  readonly starts: readonly number[];
}

/** normalizeTokens(text), with each token's place: the tokenizer a request goes through, once. */
export function tokenize(text: string): TokenizedText {
  const folded = foldText(text);
  const word = isAscii(folded) ? /[a-z0-9]+/g : /[\p{L}\p{N}]+/gu;
  const tokens: string[] = [];
  const starts: number[] = [];
  for (let m = word.exec(folded); m !== null; m = word.exec(folded)) {
    tokens.push(m[0]);
    starts.push(m.index);
  }
  return { text, folded, tokens, starts };
}

/**
 * The tokens of `read.text` with the given ranges of it ([start, end) offsets into
 * the text) blanked out: what tokenize would give for the text with those
 * characters replaced by spaces, found from the tokens already read. A token cut by
 * a range leaves its pieces outside it; `from` gives each token's index in read.tokens.
 * (One difference: a Greek capital sigma lowercases by what follows it, so one just
 * before a blanked range stays "σ" here where the blanked text would give "ς".)
 */
export function tokensOutside(read: TokenizedText, ranges: readonly (readonly [number, number])[]): { tokens: string[]; from: number[] } {
  if (ranges.length === 0) return { tokens: [...read.tokens], from: read.tokens.map((_, i) => i) };
  // Folding keeps each character's length in ASCII text; otherwise each folded unit is traced to its character.
  const source = isAscii(read.text) ? null : sourceOffsets(read.text);
  const blank = (at: number) => {
    const offset = source === null ? at : source[at]!;
    return ranges.some(([start, end]) => offset >= start && offset < end);
  };
  const tokens: string[] = [];
  const from: number[] = [];
  read.tokens.forEach((token, i) => {
    let piece = '';
    const keep = () => {
      if (piece === '') return;
      tokens.push(piece);
      from.push(i);
      piece = '';
    };
    for (let j = 0; j < token.length; j++) {
      if (!blank(read.starts[i]! + j)) piece += token[j];
      else keep();
    }
    keep();
  });
  return { tokens, from };
}

/**
 * For each code unit of foldText(text), the offset in `text` of the character it
 * comes from. Folding a whole text and folding it character by character give texts
 * of the same length (NFKD decomposes each character on its own, the marks it drops
 * are dropped either way, and lowercasing changes no length once the marks are gone).
 */
function sourceOffsets(text: string): Int32Array {
  const offsets: number[] = [];
  for (let at = 0; at < text.length; ) {
    const width = text.codePointAt(at)! > 0xffff ? 2 : 1;
    const units = foldText(text.slice(at, at + width)).length;
    for (let k = 0; k < units; k++) offsets.push(at);
    at += width;
  }
  return Int32Array.from(offsets);
}

// Function words of both languages: they carry no topic and would only cost time.
const STOPWORDS = new Set(
  (
    'a an the and or of to in on for with by at from as is are be we our us you your it its this that these ' +
    'those into over than then also can will more most all any each per via yang dan di ke dari untuk dengan ' +
    'pada dalam kami kita anda ini itu atau juga serta oleh para sebagai adalah akan bagi agar sejak hingga ' +
    'lebih tidak bisa dapat secara telah sudah karena setiap tiap se nya pun'
  ).split(' '),
);

export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}
