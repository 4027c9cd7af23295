/**
 * The folding every index of the project uses (lowercase, NFKD, diacritics
 * stripped, split on anything that is not a letter or digit), for phrases of
 * the language data: "Situs Web" -> "situs web", "e-commerce" -> "e commerce".
 */
const ASCII = /^[\x00-\x7f]*$/;

export function phraseTokens(text: string): string[] {
  // Most entries are ASCII: the Unicode folding gives the same result for them, several times slower.
  const folded = ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  return folded.split(ASCII.test(folded) ? /[^a-z0-9]+/ : /[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

export const phraseKey = (text: string): string => phraseTokens(text).join(' ');
