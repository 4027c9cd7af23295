/**
 * The words of a snapshot's keyword index (search_postings), for typo
 * tolerance on the keyword side: a query word the index has never seen ("webiste",
 * "andriod", "wordpres") is replaced by the nearest indexed words, so bm25 has a
 * posting list to rank. The vector side tolerates typos through character n-grams;
 * without this the keyword side would contribute only noise to the fusion.
 *
 * Read once per snapshot from search_postings (each term and its document frequency).
 */
import type { Snapshot } from '../query/snapshot.ts';

/**
 * Edit budget by word length, as Elasticsearch's `fuzziness: AUTO:4,8`: shorter
 * words are not corrected (three letters are one edit from too many words), 4 to 7
 * letters allow one edit, 8 or more allow two.
 */
const MIN_CORRECTED_LENGTH = 4;
const TWO_EDITS_FROM_LENGTH = 8;
/**
 * Corrections keep the word's first letter (Lucene's and Elasticsearch's
 * `prefix_length: 1`): people rarely mistype the first letter, and a four-letter
 * word is one edit from many others ("sell" -> "well").
 */
const KEPT_PREFIX = 1;
/** Most replacements per word: the closest, most frequent first. */
const MAX_CORRECTIONS = 3;

const POSTINGS_VOCABULARY_SQL = `SELECT term, df AS doc FROM search_postings`;

export interface Vocabulary {
  /** whether the index holds this exact term */
  has(term: string): boolean;
  /** whether some indexed term starts with this prefix */
  hasPrefix(prefix: string): boolean;
  /** the nearest indexed terms of an unknown word (empty when none is within the edit budget) */
  corrections(word: string): string[];
}

export function editBudget(word: string): number {
  if (word.length < MIN_CORRECTED_LENGTH) return 0;
  return word.length < TWO_EDITS_FROM_LENGTH ? 1 : 2;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions:
 * "andriod" is one edit from "android"), or budget + 1 as soon as it must exceed budget.
 */
export function editDistance(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > budget) return budget + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

export interface Entry {
  term: string;
  doc: number;
}

/** The indexed terms with their document frequencies. */
export function vocabularyEntries(snapshot: Snapshot): Entry[] {
  return snapshot.prepare<[], Entry>(POSTINGS_VOCABULARY_SQL).all();
}

export function buildVocabulary(entries: Entry[]): Vocabulary {
  const terms = new Set(entries.map((e) => e.term));
  const sorted = [...terms].sort();
  // Candidates by first letter and length: a word is compared with few terms.
  const buckets = new Map<string, Entry[]>();
  const bucketKey = (word: string, length: number) => `${word.slice(0, KEPT_PREFIX)}${length}`;
  for (const e of entries) {
    // Digits are codes and numbers, never a misspelled service word.
    if (/\d/.test(e.term)) continue;
    const key = bucketKey(e.term, e.term.length);
    const list = buckets.get(key) ?? [];
    list.push(e);
    buckets.set(key, list);
  }
  const hasPrefix = (prefix: string) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < sorted.length && sorted[lo]!.startsWith(prefix);
  };
  const corrections = (word: string) => {
    const budget = editBudget(word);
    if (budget === 0 || terms.has(word) || /\d/.test(word)) return [];
    const found: { term: string; doc: number; distance: number }[] = [];
    for (let len = word.length - budget; len <= word.length + budget; len++) {
      for (const e of buckets.get(bucketKey(word, len)) ?? []) {
        const distance = editDistance(word.slice(KEPT_PREFIX), e.term.slice(KEPT_PREFIX), budget);
        if (distance <= budget) found.push({ ...e, distance });
      }
    }
    const closest = Math.min(...found.map((f) => f.distance));
    return found
      .filter((f) => f.distance === closest)
      .sort((a, b) => b.doc - a.doc || (a.term < b.term ? -1 : 1))
      .slice(0, MAX_CORRECTIONS)
      .map((f) => f.term);
  };
  return { has: (term) => terms.has(term), hasPrefix, corrections };
}

/** The keyword index's vocabulary of a snapshot, read on first use. */
export function snapshotVocabulary(snapshot: Snapshot): Vocabulary {
  return snapshot.memo('fts-vocabulary', () => buildVocabulary(vocabularyEntries(snapshot)));
}
