/**
 * Reads back the FTS5 expressions that search-text.ts writes (only that grammar):
 *   expression := group ((" OR " | " AND ") group)*
 *   group      := alternative | "(" alternative (" OR " alternative)* ")"
 *   alternative:= a double-quoted phrase ("" escapes a quote), optionally followed by *
 * so that search_postings can evaluate the same query without FTS5.
 */
import { normalizeTokens } from '../snapshot/embedder-text.ts';

export interface Alternative {
  /** the phrase's tokens (normalized as the index is) */
  tokens: string[];
  /** the last token is a prefix */
  prefix: boolean;
}

export type Group = Alternative[];

/** The groups of an expression, or null when it is not of the expected grammar. */
export function parseMatchExpression(expression: string): Group[] | null {
  const groups: Group[] = [];
  let i = 0;
  const s = expression;
  const skipSpaces = () => {
    while (s[i] === ' ') i++;
  };
  const readAlternative = (): Alternative | null => {
    if (s[i] !== '"') return null;
    i++;
    let phrase = '';
    for (;;) {
      if (i >= s.length) return null;
      if (s[i] === '"') {
        if (s[i + 1] === '"') {
          phrase += '"';
          i += 2;
          continue;
        }
        i++;
        break;
      }
      phrase += s[i++];
    }
    const prefix = s[i] === '*';
    if (prefix) i++;
    const tokens = normalizeTokens(phrase);
    return tokens.length ? { tokens, prefix } : { tokens: [], prefix };
  };
  const readKeyword = (): boolean => {
    skipSpaces();
    if (s.startsWith('OR ', i)) i += 3;
    else if (s.startsWith('AND ', i)) i += 4;
    else return false;
    skipSpaces();
    return true;
  };
  for (;;) {
    skipSpaces();
    if (i >= s.length) break;
    if (s[i] === '(') {
      i++;
      const group: Group = [];
      for (;;) {
        skipSpaces();
        const alt = readAlternative();
        if (!alt) return null;
        if (alt.tokens.length) group.push(alt);
        skipSpaces();
        if (s[i] === ')') {
          i++;
          break;
        }
        if (!readKeyword()) return null;
      }
      if (group.length) groups.push(group);
    } else {
      const alt = readAlternative();
      if (!alt) return null;
      if (alt.tokens.length) groups.push([alt]);
    }
    skipSpaces();
    if (i >= s.length) break;
    if (!readKeyword()) return null;
  }
  return groups;
}
