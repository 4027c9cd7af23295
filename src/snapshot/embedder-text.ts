/**
 * Text -> weighted "units" for the built-in embedder. Documents and queries go
 * through exactly this code, so a query lands where a document with the same
 * words would.
 *
 * A unit is one of:
 *  - a word (its vector = its own row + its character n-grams, fastText-style, so
 *    an unseen or misspelled word still lands near the words it shares n-grams with);
 *  - a bigram of adjacent words (phrases such as "toko online" mean more than their words);
 *  - a concept from the service lexicon (src/text/lexicon/concepts.ts), shared by
 *    synonyms in Indonesian and English.
 * Each unit kind hashes into its own namespace (32-bit FNV-1a), so the model never
 * stores a vocabulary, only rows for the hashes it saw.
 */
import { isStopword, normalizeTokens } from '../text/tokens.ts';
import { findConcepts } from '../text/lexicon/concepts.ts';

export type UnitKind = 'word' | 'bigram' | 'concept';

export interface TextUnit {
  kind: UnitKind;
  key: string;
  count: number;
}


/**
 * Units of a text with their counts, in first-seen order (deterministic).
 * Single characters and stopwords are dropped as words but still let the lexicon
 * see phrases such as "e commerce" or "ui ux".
 */
export function textUnits(text: string): TextUnit[] {
  const tokens = normalizeTokens(text);
  // One map per kind: keys need no prefix, so no string is built per occurrence.
  const words = new Map<string, TextUnit>();
  const bigrams = new Map<string, TextUnit>();
  const concepts = new Map<string, TextUnit>();
  const add = (units: Map<string, TextUnit>, kind: UnitKind, key: string) => {
    const unit = units.get(key);
    if (unit) unit.count++;
    else units.set(key, { kind, key, count: 1 });
  };
  for (const concept of findConcepts(tokens)) add(concepts, 'concept', concept);
  let previous: string | null = null;
  for (const token of tokens) {
    if (token.length < 2 || isStopword(token)) {
      previous = null;
      continue;
    }
    add(words, 'word', token);
    if (previous !== null) add(bigrams, 'bigram', `${previous} ${token}`);
    previous = token;
  }
  return [...concepts.values(), ...words.values(), ...bigrams.values()];
}

/** Character n-grams (3..5) of a word with boundary marks: "web" -> "<we", "web", "eb>", "<web", ... */
export function charNgrams(word: string, min = 3, max = 5): string[] {
  const marked = '<' + word + '>';
  const grams: string[] = [];
  for (let n = min; n <= max; n++) {
    for (let i = 0; i + n <= marked.length; i++) grams.push(marked.slice(i, i + n));
  }
  return grams;
}

/** 32-bit FNV-1a over UTF-16 code units, salted by a namespace letter. */
export function featureHash(namespace: string, key: string): number {
  let h = 0x811c9dc5;
  h = Math.imul(h ^ namespace.charCodeAt(0), 0x01000193);
  h = Math.imul(h ^ 0x3a, 0x01000193);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** featureHash('b', `${first} ${second}`) without building the string (document embedding is hot). */
export function bigramHash(first: string, second: string): number {
  let h = 0x811c9dc5;
  h = Math.imul(h ^ 0x62 /* b */, 0x01000193);
  h = Math.imul(h ^ 0x3a, 0x01000193);
  for (let i = 0; i < first.length; i++) h = Math.imul(h ^ first.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0x20, 0x01000193);
  for (let i = 0; i < second.length; i++) h = Math.imul(h ^ second.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Hash of a unit's own feature (word, bigram or concept). */
export function unitHash(unit: TextUnit): number {
  return featureHash(unit.kind === 'word' ? 'w' : unit.kind === 'bigram' ? 'b' : 'k', unit.key);
}

export function charGramHash(gram: string): number {
  return featureHash('c', gram);
}

/** The public fields of a provider that its vector is made from (the builder and tests share this). */
export interface ProviderTextFields {
  companyName: string;
  tagline: string;
  description: string;
  capabilityTags: readonly string[];
  industryFocus: readonly string[];
  categoryNames: readonly string[];
  city: string | null;
  province: string | null;
}

/** One text per provider: what the embedder reads at build time. */
export function providerEmbeddingText(p: ProviderTextFields): string {
  return [
    p.companyName,
    p.tagline,
    p.description,
    p.capabilityTags.join(', '),
    p.industryFocus.join(', '),
    p.categoryNames.join(', '),
    p.city ?? '',
    p.province ?? '',
  ].join('\n');
}
