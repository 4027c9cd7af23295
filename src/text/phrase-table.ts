/**
 * The one way phrases are looked up: a table of phrases (one or more tokens each,
 * normalized by src/text/tokens.ts) mapped to targets. Every phrase list of
 * src/text/lexicon, the parser's place and service tables and the search's
 * synonym groups are PhraseTables.
 */
import { normalizeTokens } from './tokens.ts';

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
 * `find` scans left to right and takes the longest phrase at each position, so
 * "aplikasi android" wins over "android" and "jakarta selatan" over "jakarta";
 * hits never overlap.
 */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, { tokens: string[]; target: T }[]>();

  add(phrase: string, target: T): void {
    const t = normalizeTokens(phrase);
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

  /** Every phrase of the table, as tokens. */
  phrases(): string[][] {
    return [...this.byFirst.values()].flatMap((list) => list.map((e) => e.tokens));
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
