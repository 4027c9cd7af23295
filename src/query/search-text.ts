/**
 * Query text -> FTS5 MATCH expression. User text never reaches MATCH raw: it is
 * split with the embedder's tokenizer (the same folding as the FTS index's
 * unicode61 remove_diacritics 2), every token is double-quoted (so AND, OR, NEAR,
 * `*`, `^`, `:` and parentheses are plain words), and the last token is
 * prefix-matched so a query typed halfway still finds ("develo" -> "developer").
 */
import { isStopword, normalizeTokens } from '../snapshot/embedder-text.ts';

/** More terms add little to ranking and cost one posting list each. */
const MAX_TERMS = 12;
/** Shorter prefixes expand to too many index terms to be worth it. */
const MIN_PREFIX_LENGTH = 3;

export interface KeywordQuery {
  /** distinct terms used, in query order */
  terms: string[];
  /** whether the last term is prefix-matched */
  prefixLast: boolean;
  /** the FTS5 expression, or null when the text has no searchable term */
  match: string | null;
}

/**
 * Topic words of the query: stopwords and one-letter tokens are dropped, unless
 * nothing else is left (an all-stopword query still searches its words).
 */
export function queryTerms(text: string): string[] {
  const tokens = [...new Set(normalizeTokens(text))];
  const topical = tokens.filter((t) => t.length > 1 && !isStopword(t));
  return (topical.length > 0 ? topical : tokens).slice(0, MAX_TERMS);
}

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;

export function keywordQuery(text: string): KeywordQuery {
  const terms = queryTerms(text);
  if (terms.length === 0) return { terms, prefixLast: false, match: null };
  // Prefix only when the text ends inside a word: "jasa web " is two whole words.
  const endsInWord = /[\p{L}\p{N}]$/u.test(text);
  const last = terms[terms.length - 1]!;
  const prefixLast = endsInWord && last.length >= MIN_PREFIX_LENGTH && normalizeTokens(text).at(-1) === last;
  const parts = terms.map((t, i) => (i === terms.length - 1 && prefixLast ? `${quote(t)}*` : quote(t)));
  // OR: a profile matching some of the words is still a candidate; bm25 ranks
  // profiles matching more (and rarer) words first.
  return { terms, prefixLast, match: parts.join(' OR ') };
}

/** The query terms found in a text (the last one as a prefix when prefixLast). */
export function termsFoundIn(text: string, query: Pick<KeywordQuery, 'terms' | 'prefixLast'>): string[] {
  const words = new Set(normalizeTokens(text));
  return query.terms.filter((term, i) => {
    if (words.has(term)) return true;
    if (!(query.prefixLast && i === query.terms.length - 1)) return false;
    for (const w of words) if (w.startsWith(term)) return true;
    return false;
  });
}
