/**
 * Service synonyms for the keyword side: a service phrase in the query ("toko
 * online", "halaman pertama google") becomes an OR group of every phrase of the
 * same service in both languages ("e commerce", "olshop", "online shop", ..., and
 * the category's own name), so bm25 finds profiles that say the same thing in
 * other words. The phrases are the domain lexicon the natural-language parser
 * uses (SERVICE_PHRASES, keyed by category slug): one lexicon, two readers. Words
 * of the embedder's lexicon (src/text/lexicon/concepts.ts) are known words too.
 */
import { LEXICON_WORDS } from '../text/lexicon/concepts.ts';
import { vocabularyOf } from '../query/nl-query-vocabulary.ts';
import { servicePhrases } from '../query/service-phrases.ts';
import { PhraseTable } from '../text/phrase-table.ts';
import { normalizeTokens } from '../text/tokens.ts';
import type { Snapshot } from '../query/snapshot.ts';

export interface SynonymHit {
  /** index of the first query token the phrase covers */
  start: number;
  /** number of query tokens covered */
  length: number;
  /**
   * the service's normalized phrases ("toko online", "e commerce"), always in the
   * lexicon's order: whichever phrase matched, a service is one group (kept once
   * per snapshot, src/search/postings-store.ts)
   */
  alternatives: string[];
}

export interface SynonymTable {
  find(words: readonly string[]): SynonymHit[];
  /** whether a word belongs to a lexicon phrase (a word to keep, never to correct as a typo) */
  knows(word: string): boolean;
  /** every service's phrases (normalized), one list per service */
  groups(): string[][];
}

const normalized = (phrase: string) => normalizeTokens(phrase).join(' ');

/** A table over phrase lists keyed by service (`'a|b|c'` per key). */
export function buildSynonymTable(phrasesByService: Readonly<Record<string, string>>): SynonymTable {
  const groups = new Map<string, string[]>();
  const table = new PhraseTable<string>();
  const known = new Set(LEXICON_WORDS);
  for (const [service, list] of Object.entries(phrasesByService)) {
    const phrases = [...new Set(list.split('|').map(normalized).filter((p) => p.length > 0))];
    groups.set(service, phrases);
    for (const phrase of phrases) {
      table.add(phrase, service);
      for (const word of phrase.split(' ')) known.add(word);
    }
  }
  return {
    find(words) {
      return table.find(words).map((hit) => ({
        start: hit.start,
        length: hit.length,
        alternatives: groups.get(hit.target)!,
      }));
    },
    knows: (word) => known.has(word),
    groups: () => [...groups.values()],
  };
}

/**
 * The lexicon's services that the snapshot has as usable categories, each also
 * named by its category name ("E-Commerce", "Penetration Testing"), which the
 * keyword index holds in its category_names column. Which phrase names which of
 * the snapshot's services is the request reader's rule (src/query/service-phrases.ts):
 * a phrase two services share names neither, so it is searched as typed.
 */
export function snapshotSynonyms(snapshot: Snapshot): SynonymTable {
  return snapshot.memo('search-synonyms', () => {
    const phrases: Record<string, string> = {};
    const { categories } = vocabularyOf(snapshot);
    const { lexicon } = servicePhrases(categories);
    for (const { slug, name } of categories) {
      const kept = lexicon.get(slug);
      if (kept) phrases[slug] = [...kept, name].join('|');
    }
    return buildSynonymTable(phrases);
  });
}
