/**
 * The request's words -> the keyword side's structured query. User text never
 * reaches an index as syntax: the request's reader (src/query/nl-query.ts) split
 * it once with the index's tokenizer (the folding the postings were built with), so
 * operators, quotes and parentheses are plain words or nothing; this module takes
 * those tokens. The last token is prefix-matched so a query typed halfway still
 * finds ("develo" -> "developer").
 *
 * A query is a list of groups (one per topic of the query); a group is a list of
 * alternatives, each a word or a phrase (its last word optionally a prefix) with a
 * weight in (0, 1]. A profile's score is the sum over groups of the weighted bm25
 * contributions of the alternatives it matches (keyword-side.ts); weight 1 is the
 * plain contribution, a lower weight down-weights an expansion (a translation, a
 * thesaurus word) against the words the user typed.
 */
import { foldText, isAscii, isStopword } from '../text/tokens.ts';
import { FILLER_WORDS } from '../text/lexicon/words.ts';
import type { RequestWords } from '../query/nl-query.ts';
import type { BridgeLookup } from '../language/bridge-table.ts';
import { bridgedSpellings } from './language-expansion.ts';
import type { SynonymTable } from './synonyms.ts';
import type { Vocabulary } from './vocabulary.ts';

/** More terms add little to ranking and cost one posting list each. */
const MAX_TERMS = 12;
/** Words of a long text looked at for typos and phrases (the API caps q at 200 code points anyway). */
const MAX_TOKENS = 32;
/** Shorter prefixes expand to too many index terms to be worth it. */
const MIN_PREFIX_LENGTH = 3;

export interface KeywordAlternative {
  /** the word, or the phrase's words, normalized as the index is */
  tokens: string[];
  /** the last token is a prefix */
  prefix: boolean;
  /** in (0, 1]: multiplies this alternative's bm25 contribution (1 = as typed) */
  weight: number;
}

export interface KeywordGroup {
  alternatives: KeywordAlternative[];
}

export interface KeywordQuery {
  /** distinct terms used, in query order */
  terms: string[];
  /** whether the last term is prefix-matched */
  prefixLast: boolean;
  /** the topics; empty when the text has no searchable term */
  groups: KeywordGroup[];
  /**
   * Profiles matching every group rank before the rest (each tier in bm25 order):
   * bm25 alone lets one frequent synonym outweigh a second topic the profile lacks.
   */
  allTopicsFirst: boolean;
}

/**
 * Topic words of the query: stopwords and one-letter tokens are dropped, unless
 * nothing else is left (an all-stopword query still searches its words).
 */
export function queryTerms(all: readonly string[]): string[] {
  const tokens = [...new Set(all)];
  const topical = tokens.filter((t) => t.length > 1 && !isStopword(t));
  return (topical.length > 0 ? topical : tokens).slice(0, MAX_TERMS);
}

/**
 * One alternative from a word or phrase written as the index writes it (tokens
 * joined by spaces: a query token, an index term, a synonym or bridge phrase); an
 * empty phrase gives null.
 */
export function alternative(phrase: string, prefix = false, weight = 1): KeywordAlternative | null {
  const tokens = phrase.split(' ').filter((t) => t.length > 0);
  return tokens.length > 0 ? { tokens, prefix, weight } : null;
}

const groupOf = (alternatives: (KeywordAlternative | null)[]): KeywordGroup | null => {
  const kept = alternatives.filter((a): a is KeywordAlternative => a !== null);
  return kept.length > 0 ? { alternatives: kept } : null;
};

/** Identifies a group by its alternatives in order (two identical topics count once). */
export const groupKey = (group: KeywordGroup): string =>
  group.alternatives.map((a) => `${a.tokens.join(' ')}${a.prefix ? '*' : ''}^${a.weight}`).join('|');

/** The baseline query: each topic word is its own group, bm25 over the words as typed, no tiers. */
export function keywordQuery(words: RequestWords): KeywordQuery {
  const terms = queryTerms(words.tokens);
  if (terms.length === 0) return { terms, prefixLast: false, groups: [], allTopicsFirst: false };
  // Prefix only when the text ends inside a word: "jasa web " is two whole words.
  const last = terms[terms.length - 1]!;
  const prefixLast = words.endsInWord && last.length >= MIN_PREFIX_LENGTH && words.tokens.at(-1) === last;
  // Any word: a profile matching some of the words is still a candidate; bm25 ranks
  // profiles matching more (and rarer) words first.
  const groups = terms.map((t, i) => groupOf([alternative(t, i === terms.length - 1 && prefixLast)])).filter((g) => g !== null);
  return { terms, prefixLast, groups, allTopicsFirst: false };
}

/** Words that name no service in a request: function words and filler ("jasa", "bikin", "terbaik"). */
const isFiller = (token: string) => isStopword(token) || FILLER_WORDS.has(token) || token.length < 2;

/**
 * The keyword side's query, the one place that builds it (searchProviders calls
 * this): the same tokens as keywordQuery, plus
 *  - typo tolerance: a word the index has never seen is replaced by its nearest
 *    indexed words ("andriod" -> "android"), before phrases are looked up, so
 *    "toko onlien" is still the phrase "toko online";
 *  - synonyms: a service phrase becomes a group of the service's phrases in both
 *    languages (synonyms.ts);
 *  - filler words ("jasa", "bikin", "yang", "the") dropped unless nothing else is left.
 * Each remaining topic is one group; with several, profiles matching all of them
 * rank first. Further expansions of a topic (translations, thesaurus words) belong
 * in its group as alternatives with a weight below 1.
 */
export function expandedKeywordQuery(request: RequestWords, vocabulary: Vocabulary, synonyms: SynonymTable, bridge: BridgeLookup = () => []): KeywordQuery {
  const all = request.tokens;
  const raw = all.slice(0, MAX_TOKENS);
  if (raw.length === 0) return { terms: [], prefixLast: false, groups: [], allTopicsFirst: false };
  const endsInWord = raw.length === all.length && request.endsInWord;
  const lastIndex = raw.length - 1;
  const typedHalfway = (i: number) => i === lastIndex && endsInWord && raw[i]!.length >= MIN_PREFIX_LENGTH;
  // Typo tolerance first: unknown words (not filler, not a prefix being typed) take their nearest indexed words.
  const spellings = raw.map((token, i) => {
    if (isFiller(token) || vocabulary.has(token) || synonyms.knows(token)) return [token];
    if (bridge(token).length > 0) return [token]; // a dictionary word, not a typo: the bridge below gives its alternatives
    if (typedHalfway(i) && vocabulary.hasPrefix(token)) return [token];
    const corrections = vocabulary.corrections(token);
    return corrections.length > 0 ? corrections : [token];
  });
  const words = spellings.map((s) => s[0]!);
  const covered = new Array<boolean>(words.length).fill(false);
  const found: { at: number; group: KeywordGroup | null }[] = [];
  for (const hit of synonyms.find(words)) {
    for (let i = hit.start; i < hit.start + hit.length; i++) covered[i] = true;
    found.push({ at: hit.start, group: groupOf(hit.alternatives.map((p) => alternative(p))) });
  }
  const terms: string[] = [];
  let prefixLast = false;
  const bridged = bridgedSpellings(words, (i) => covered[i]! || isFiller(words[i]!), bridge, (w) => vocabulary.has(w));
  words.forEach((word, i) => {
    if (covered[i] || isFiller(word)) return;
    const prefix = typedHalfway(i) && spellings[i]!.length === 1 && word === raw[i] && !bridged.has(i);
    if (prefix) prefixLast = true;
    found.push({ at: i, group: groupOf((bridged.get(i) ?? spellings[i]!).map((s) => alternative(s, prefix))) });
  });
  for (let i = 0; i < words.length; i++) if (covered[i] || !isFiller(words[i]!)) terms.push(words[i]!);
  if (found.length === 0) return keywordQuery(request); // only filler: search its words as typed
  const byKey = new Map<string, KeywordGroup>();
  for (const { group } of found.sort((a, b) => a.at - b.at)) if (group && !byKey.has(groupKey(group))) byKey.set(groupKey(group), group);
  const groups = [...byKey.values()].slice(0, MAX_TERMS);
  const distinct = [...new Set(terms)].slice(0, MAX_TERMS);
  return {
    terms: distinct,
    prefixLast: prefixLast && distinct.at(-1) === words[lastIndex],
    groups,
    allTopicsFirst: groups.length > 1,
  };
}

/**
 * The query terms found in a text (the last one as a prefix when prefixLast): the
 * same answer as looking each term up among normalizeTokens(text), found by
 * scanning the folded text for the term between token boundaries instead of
 * splitting a whole description into words for every hit of every search.
 */
export function termsFoundIn(text: string, query: Pick<KeywordQuery, 'terms' | 'prefixLast'>): string[] {
  const folded = foldText(text);
  const wordAt = isAscii(folded) ? asciiWordAt : unicodeWordAt;
  const last = query.terms.length - 1;
  return query.terms.filter((term, i) => {
    const prefix = query.prefixLast && i === last;
    for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
      if (at > 0 && wordAt(folded, at - 1)) continue;
      if (prefix || !wordAt(folded, at + term.length)) return true;
    }
    return false;
  });
}

/** Whether the character at `i` belongs to a token ([a-z0-9] after ASCII folding). */
function asciiWordAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

const UNICODE_WORD = /[\p{L}\p{N}]/u;
/** The same for folded non-ASCII text: a letter or digit (the code unit's code point, surrogates included). */
function unicodeWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  // A low surrogate: the character starts one unit earlier.
  const start = c >= 0xdc00 && c <= 0xdfff && i > 0 ? i - 1 : i;
  return UNICODE_WORD.test(String.fromCodePoint(text.codePointAt(start)!));
}
