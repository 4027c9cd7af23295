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
