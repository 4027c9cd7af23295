/**
 * A light English stemmer for matching word forms, not for linguistics: one
 * inflectional or agent suffix off, then a final "e" ("hacker", "hacking",
 * "hacks" -> "hack"; "advertisement", "advertising" -> "advertis"). Words of four
 * letters or fewer stay as they are. Indonesian words pass mostly unchanged
 * (their affixes are not these).
 */
const SUFFIXES = ['ations', 'ation', 'ments', 'ment', 'ings', 'ing', 'ers', 'er', 'ies', 'ied', 'ed', 'es', 's'];

export function englishStem(word: string): string {
  if (word.length <= 4) return word;
  let stem = word;
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) {
      stem = word.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '');
      break;
    }
  }
  return stem.length > 4 && stem.endsWith('e') ? stem.slice(0, -1) : stem;
}

const ID_SUFFIXES = ['nya', 'lah', 'kah', 'kan', 'an', 'in', 'i'];
const ID_PREFIXES = ['memper', 'meng', 'meny', 'mem', 'men', 'me', 'peng', 'peny', 'pem', 'pen', 'per', 'pe', 'ber', 'be', 'ter', 'di', 'ke', 'se'];

/**
 * A light Indonesian stemmer for matching word forms: one suffix (-nya, -kan,
 * -an, colloquial -in, ...) and one prefix (di-, ber-, meng-, peng-, ...) off,
 * keeping at least four letters: "dipakai" -> "paka", "pakai" -> "paka";
 * "pengembangan" and "mengembangkan" -> "embang". No nasal restoration: both
 * sides of a comparison are stemmed alike, so they meet anyway.
 */
export function indonesianStem(word: string): string {
  let stem = word;
  for (const suffix of ID_SUFFIXES) {
    if (stem.endsWith(suffix) && stem.length - suffix.length >= 4) {
      stem = stem.slice(0, -suffix.length);
      break;
    }
  }
  for (const prefix of ID_PREFIXES) {
    if (stem.startsWith(prefix) && stem.length - prefix.length >= 4) {
      stem = stem.slice(prefix.length);
      break;
    }
  }
  return stem;
}

/** The key word forms are matched by: the English stem, then the Indonesian one. */
export const wordStem = (word: string): string => indonesianStem(englishStem(word));
