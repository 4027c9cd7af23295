/**
 * Query expansion from the snapshot's language bridge (src/language/bridge-table.ts):
 * words and two-word phrases of a query that the bridge knows ("peretas",
 * "situs web"), directly or through their stem, get weighted alternatives the
 * snapshot's text uses ("hacking", "website"). Both sides of search read the same groups:
 *  - the vector side adds the alternatives' vectors to the query's (embedQuery);
 *  - the keyword side ORs them into the word's group (keyword-query.ts).
 * Bounded so a long query cannot explode: at most MAX_GROUPS groups of at most
 * MAX_ALTERNATIVES (src/language/bridge.ts) alternatives each.
 *
 *   bridgeExpansions(words, lookup) -> [{start, length, alternatives: [{phrase, weight}]}]
 */
import type { Alternative } from '../language/bridge.ts';
import { bridgeLookup, DICTIONARY_STEM_PREFIX, STEM_PREFIX, type BridgeLookup } from '../language/bridge-table.ts';
import { wordStem } from '../language/stem.ts';
import { isStopword } from '../text/tokens.ts';
import type { Snapshot } from '../query/snapshot.ts';

export interface ExpansionGroup {
  /** index of the first query word the group replaces or adds to */
  start: number;
  /** number of query words it covers (1 or 2) */
  length: number;
  /** best first; weight in (0, 1], below 1 down-weights */
  alternatives: Alternative[];
}

/** Most expanded words or phrases per query. */
export const MAX_GROUPS = 6;
const MIN_WORD_LENGTH = 3;

/** Two-word phrases first ("situs web" before "situs"), left to right, never overlapping. */
export function bridgeExpansions(words: readonly string[], lookup: BridgeLookup): ExpansionGroup[] {
  const groups: ExpansionGroup[] = [];
  for (let i = 0; i < words.length && groups.length < MAX_GROUPS; i++) {
    const pair = i + 1 < words.length ? lookup(`${words[i]} ${words[i + 1]}`) : [];
    if (pair.length > 0) {
      groups.push({ start: i, length: 2, alternatives: pair });
      i++;
      continue;
    }
    const word = words[i]!;
    if (word.length < MIN_WORD_LENGTH || isStopword(word)) continue;
    const alternatives = lookup(word);
    if (alternatives.length > 0) groups.push({ start: i, length: 1, alternatives });
    else {
      // No dictionary holds it: the snapshot's own forms of the word ("dipakai" -> "pakai"), unless it is one;
      // when the snapshot has none, a dictionary word of the same stem ("diajarkan" -> "ajar").
      const stem = wordStem(word);
      const forms = lookup(STEM_PREFIX + stem);
      const root = forms.length === 0 ? lookup(DICTIONARY_STEM_PREFIX + stem) : [];
      if (forms.length > 0 && !forms.some((f) => f.phrase === word)) groups.push({ start: i, length: 1, alternatives: forms });
      else if (root.length > 0) groups.push({ start: i, length: 1, alternatives: root });
    }
  }
  return groups;
}

/** The snapshot's bridge, looked up through its primary key; answers are kept (queries repeat words). */
export function snapshotBridge(snapshot: Snapshot): BridgeLookup {
  return snapshot.memo('language-bridge', () => {
    const lookup = bridgeLookup(snapshot.db);
    const kept = new Map<string, Alternative[]>();
    return (phrase: string) => {
      let hit = kept.get(phrase);
      if (hit === undefined) {
        if (kept.size >= 50_000) kept.clear();
        kept.set(phrase, (hit = lookup(phrase)));
      }
      return hit;
    };
  });
}

/**
 * An alternative made only of function words ("since" -> "dari", "sejak dari") adds no
 * topic, as a function word typed adds none, and its list holds most profiles: at
 * 1,000,000 providers "in tangerang active since 2019" walked "dari"'s 600,000
 * postings for 40 ms. The keyword side leaves such alternatives out. (A bridge
 * phrase is written as the index writes it: its words joined by spaces.)
 */
const topical = (phrase: string) => phrase.split(' ').some((t) => !isStopword(t));

/**
 * The keyword side's use of the bridge, by word position: the word itself (when
 * the index holds it) followed by its alternatives that are not only function
 * words, at most MAX_GROUPS words; a word left with none has no entry (it is
 * searched as the bridge did not know it). Today's keyword engine ORs them
 * unweighted (each alternative still needs the profile to use it); the weights are
 * there for an engine that down-weights.
 */
export function bridgedSpellings(
  words: readonly string[],
  skip: (index: number) => boolean,
  lookup: BridgeLookup,
  indexed: (word: string) => boolean,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const candidates = words.map((w, i) => (skip(i) ? '' : w));
  for (const g of bridgeExpansions(candidates, lookup)) {
    if (g.length !== 1) continue; // two-word phrases are the synonym table's job on this side
    const word = words[g.start]!;
    const spellings = [...(indexed(word) ? [word] : []), ...g.alternatives.map((a) => a.phrase).filter(topical)];
    if (spellings.length > 0) out.set(g.start, spellings);
  }
  return out;
}
