/**
 * The folding every index of the project uses (lowercase, NFKD, diacritics
 * stripped, split on anything that is not a letter or digit), for phrases of
 * the language data: "Situs Web" -> "situs web", "e-commerce" -> "e commerce".
 */
export function phraseTokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

export const phraseKey = (text: string): string => phraseTokens(text).join(' ');
