/**
 * The language bridge: for a phrase of the language data ("peretas", "kantor",
 * "situs web"), the related phrases the snapshot's own text uses ("hacker",
 * "office", "website"), each with a weight in (0, 1]. Built once per snapshot
 * from the graph of src/language/sources.ts and the snapshot's vocabulary, so
 * every alternative can match something; read by both sides of search.
 *
 *   buildBridge(edges, dfOf) -> Map(phrase -> [{phrase, weight}], best first)
 *
 * An alternative is a neighbour whose every word occurs in the snapshot
 * (weight = the edge's), or occurs in another English form ("hacker" is written
 * "hacking" there: the snapshot's most frequent word of the same stem stands in).
 * A phrase whose translations the snapshot does not use may reach its words one
 * step further, through the translation's synonyms, at the product of both
 * weights times SECOND_STEP_FACTOR: each step loses meaning.
 */
import { EDGE_WEIGHTS, type Edge } from './sources.ts';
import { englishStem } from './stem.ts';

export interface Alternative {
  phrase: string;
  weight: number;
}

/**
 * Few alternatives per phrase: expansion must stay cheap and close to the word.
 * Measured on the independent set's paraphrases (hybrid nDCG@10): 2 -> 0.429,
 * 4 -> 0.446, 5 -> 0.462, 6 -> 0.458, 8 -> 0.450, 12 -> 0.429; the project's set
 * alike from 4 to 12.
 */
export const MAX_ALTERNATIVES = 5;
/** With first senses only (sources.ts) the second step is cleaner: 0.5 -> 0.7 measured +0.01 on the project's paraphrases. */
const SECOND_STEP_FACTOR = 0.7;
/** Weaker links than this are noise. */
const MIN_WEIGHT = 0.2;

export function buildBridge(edges: readonly Edge[], vocabulary: ReadonlyMap<string, number>): Map<string, Alternative[]> {
  const dfOf = (word: string) => vocabulary.get(word) ?? 0;
  // The snapshot's most frequent word per English stem.
  const byStem = new Map<string, string>();
  for (const [word, df] of vocabulary) {
    const stem = englishStem(word);
    const held = byStem.get(stem);
    if (held === undefined || df > dfOf(held) || (df === dfOf(held) && word < held)) byStem.set(stem, word);
  }
  const inSnapshot = (word: string) => (dfOf(word) > 0 ? word : byStem.get(englishStem(word)));
  const neighbours = new Map<string, Map<string, number>>();
  const link = (a: string, b: string, weight: number) => {
    let list = neighbours.get(a);
    if (!list) neighbours.set(a, (list = new Map()));
    list.set(b, Math.max(list.get(b) ?? 0, weight));
  };
  for (const e of edges) {
    link(e.a, e.b, e.weight);
    link(e.b, e.a, e.weight);
  }
  // A phrase as the snapshot writes it, or null when one of its words does not occur there.
  const written = new Map<string, string | null>();
  const asWritten = (phrase: string): string | null => {
    let w = written.get(phrase);
    if (w === undefined) {
      const words = phrase.split(' ').map(inSnapshot);
      written.set(phrase, (w = words.every((x) => x !== undefined) ? words.join(' ') : null));
    }
    return w;
  };
  // Rarer words say more; among equals, the shorter phrase, then the alphabet (deterministic).
  const rarity = (phrase: string) => Math.min(...phrase.split(' ').map(dfOf));
  const order = (a: [string, number], b: [string, number]) =>
    b[1] - a[1] || a[0].split(' ').length - b[0].split(' ').length || rarity(b[0]) - rarity(a[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

  const bridge = new Map<string, Alternative[]>();
  for (const [phrase, list] of neighbours) {
    const found = new Map<string, number>();
    const add = (target: string, weight: number) => {
      const as = asWritten(target);
      if (as !== null && as !== phrase && weight >= MIN_WEIGHT) found.set(as, Math.max(found.get(as) ?? 0, weight));
    };
    // A word the snapshot uses already has its meaning there: only a translation adds to it
    // (a thesaurus sense is as likely to be another meaning: "aplikasi" as "applying").
    const known = asWritten(phrase) === phrase;
    for (const [next, weight] of list) if (!known || weight >= EDGE_WEIGHTS.translation) add(next, weight);
    if (found.size === 0 && !known) {
      for (const [next, weight] of list) {
        if (weight < 1) continue; // the second step starts from a translation only
        for (const [second, w2] of neighbours.get(next) ?? []) if (second !== phrase) add(second, weight * w2 * SECOND_STEP_FACTOR);
      }
    }
    if (found.size === 0) continue;
    const best = [...found].sort(order).slice(0, MAX_ALTERNATIVES);
    bridge.set(phrase, best.map(([p, weight]) => ({ phrase: p, weight: Math.round(weight * 1000) / 1000 })));
  }
  return bridge;
}
