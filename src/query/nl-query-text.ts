/**
 * Text helpers of the natural-language parser: one normalization for queries,
 * phrase tables and provider fields (lowercase, diacritics removed, split on
 * anything but letters and digits), and a longest-match phrase finder.
 */
export function tokens(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  return folded.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

export interface PhraseHit<T> {
  /** index of the first token */
  start: number;
  /** number of tokens */
  length: number;
  /** the matched phrase, normalized ("toko online") */
  phrase: string;
  target: T;
}

/**
 * A table of phrases (several tokens each) mapped to targets. `find` scans left to
 * right and takes the longest phrase at each position, so "aplikasi android" wins
 * over "android" and "jakarta selatan" over "jakarta"; hits never overlap.
 */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, { tokens: string[]; target: T }[]>();

  add(phrase: string, target: T): void {
    const t = tokens(phrase);
    if (t.length === 0) return;
    const list = this.byFirst.get(t[0]!) ?? [];
    if (list.some((e) => e.tokens.join(' ') === t.join(' '))) return; // first definition wins
    list.push({ tokens: t, target });
    list.sort((a, b) => b.tokens.length - a.tokens.length);
    this.byFirst.set(t[0]!, list);
  }

  find(words: readonly string[], accept: (hit: PhraseHit<T>) => boolean = () => true): PhraseHit<T>[] {
    const hits: PhraseHit<T>[] = [];
    let i = 0;
    while (i < words.length) {
      let advanced = 1;
      for (const entry of this.byFirst.get(words[i]!) ?? []) {
        if (!entry.tokens.every((t, j) => words[i + j] === t)) continue;
        const hit = { start: i, length: entry.tokens.length, phrase: entry.tokens.join(' '), target: entry.target };
        if (!accept(hit)) continue;
        hits.push(hit);
        advanced = entry.tokens.length;
        break;
      }
      i += advanced;
    }
    return hits;
  }
}

/** True when `phrase` (normalized tokens) occurs in `fieldTokens` as consecutive tokens. */
export function containsPhrase(fieldTokens: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  outer: for (let i = 0; i + phrase.length <= fieldTokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (fieldTokens[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}
