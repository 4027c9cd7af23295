/**
 * How text becomes tokens, once for everyone: the snapshot builder (postings, the
 * embedder, the lexicon) and every reader (search, recommend) fold and split text
 * with these functions, so a query token is always spelled as the index spells it.
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
