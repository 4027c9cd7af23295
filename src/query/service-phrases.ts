/**
 * Which phrases of the built-in service lexicon (SERVICE_PHRASES, mapped onto the
 * snapshot's categories by nl-query-lexicon-map.ts) name which of the snapshot's
 * services, for the request's reader (nl-query.ts) and the keyword side's synonym
 * groups (src/search/synonyms.ts). The lexicon was written for one category tree;
 * a snapshot's own category names, and their translations through the language
 * bridge (VocabularyCategory.forms), say where its phrases belong in another:
 *  - a phrase whose every content word another service's name holds, outside the
 *    phrase's own family line (its category's parents and children), names what
 *    the two services share, not either: "media sosial" where a snapshot has both
 *    "Iklan Media Sosial" and "Social Media Management", "company profile" beside
 *    "Website Company Profile" and "Video Korporat & Company Profile". Alone it
 *    names neither (an unsure reading adds nothing, and its words are searched as
 *    typed); the request's other words may choose one (`shared`, nl-query.ts);
 *  - a phrase equal to another category's name or slug belongs to that category;
 *  - a phrase holding half of one child's name, two words or more, names that child: "video company
 *    profile" names "Video Korporat & Company Profile", not its parent
 *    "Produksi Video & Foto".
 */
import { SERVICE_PHRASES } from '../text/lexicon/services.ts';
import { FILLER_WORDS } from '../text/lexicon/words.ts';
import { isStopword, normalizeTokens } from '../text/tokens.ts';
import { lexiconCategories } from './nl-query-lexicon-map.ts';

export interface ServiceCategory {
  slug: string;
  name: string;
  /** slug of the parent, null for a top-level category */
  parentSlug: string | null;
  /** the name's and slug's words with their translations (nl-query-vocabulary.ts); the name's and slug's words when absent */
  forms?: readonly string[];
}

/** Words that say what a phrase is about: not filler ("jasa", "bikin"), not function words. */
export const contentWords = (phrase: string): string[] => normalizeTokens(phrase).filter((w) => !FILLER_WORDS.has(w) && !isStopword(w));

/** A category's name and slug as words, without filler. */
export const nameWords = (c: Pick<ServiceCategory, 'name' | 'slug'>): string[] => [...new Set([...contentWords(c.name), ...contentWords(c.slug.replace(/-/g, ' '))])];

/**
 * A category's name and the names inside it: "Data Analytics & BI" is also
 * "data analytics"; "Cross-platform App (Flutter, React Native)" is also "flutter"
 * and "react native". Parts joined by "&", "and" or "dan" count when they have two
 * words or more (one word such as "Desain" is too general); listed items always do.
 */
export function nameParts(name: string): string[] {
  const listed = [...name.matchAll(/\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(/[,/]/));
  const outside = name.replace(/\([^)]*\)/g, ' ');
  const joined = outside.split(/\s(?:&|and|dan)\s|[/,]/i).filter((part) => normalizeTokens(part).length >= 2);
  return [...new Set([name, outside, ...joined, ...listed].map((p) => p.trim()).filter((p) => normalizeTokens(p).length > 0))];
}

/** Share of a child's name (and at least two of its words) a phrase must hold to name the child instead of its parent. */
const CHILD_SHARE = 0.5;

export interface ServicePhrases {
  /** the lexicon's phrases by the slug of the category they name */
  lexicon: Map<string, string[]>;
  /** whether a phrase naming `slug` (one of its name's parts, say) names what another service shares with it */
  isShared(phrase: string, slug: string): boolean;
  /** the phrases left out for being shared, each with the services sharing it (the one it was written for first) */
  shared: Map<string, string[]>;
}

export function servicePhrases(categories: readonly ServiceCategory[]): ServicePhrases {
  const bySlug = new Map(categories.map((c) => [c.slug, c]));
  const forms = new Map(categories.map((c) => [c.slug, new Set(c.forms ?? nameWords(c))]));
  const ownNames = new Map(categories.flatMap((c) => [[normalizeTokens(c.name).join(' '), c.slug], [normalizeTokens(c.slug).join(' '), c.slug]] as const));
  const lineOf = (slug: string) => {
    const line = new Set([slug]);
    for (let at = bySlug.get(slug)?.parentSlug; at; at = bySlug.get(at)?.parentSlug) line.add(at);
    for (const c of categories) if (c.parentSlug === slug) line.add(c.slug);
    return line;
  };
  /** The services outside `slug`'s family line whose names hold every content word of the phrase. */
  const sharers = (phrase: string, slug: string): string[] => {
    const words = contentWords(phrase);
    if (words.length === 0) return [];
    const line = lineOf(slug);
    return categories.filter((c) => !line.has(c.slug) && words.every((w) => forms.get(c.slug)!.has(w))).map((c) => c.slug);
  };
  const isShared = (phrase: string, slug: string) => sharers(phrase, slug).length > 0;
  const shared = new Map<string, string[]>();
  const leaveOut = (phrase: string, slug: string, others: string[]) => {
    const key = normalizeTokens(phrase).join(' ');
    shared.set(key, [...new Set([...(shared.get(key) ?? [slug]), ...others])]);
  };
  const childNamed = (phrase: string, slug: string): string => {
    const words = new Set(contentWords(phrase));
    const holding = categories.filter((c) => {
      if (c.parentSlug !== slug) return false;
      const name = nameWords(c);
      const held = name.filter((w) => words.has(w)).length;
      return held >= 2 && held >= CHILD_SHARE * name.length;
    });
    return holding.length === 1 ? holding[0]!.slug : slug;
  };

  const lexicon = new Map<string, string[]>();
  for (const [key, slug] of lexiconCategories(categories.map((c) => c.slug))) {
    if (!lexicon.has(slug)) lexicon.set(slug, []);
    const own = SERVICE_PHRASES[key]!.split('|').filter((phrase) => {
      const owner = ownNames.get(normalizeTokens(phrase).join(' '));
      return owner === undefined || owner === slug;
    });
    for (const phrase of own) {
      const others = sharers(phrase, slug);
      if (others.length > 0) {
        leaveOut(phrase, slug, others);
        continue;
      }
      const named = childNamed(phrase, slug);
      lexicon.set(named, [...(lexicon.get(named) ?? []), phrase]);
    }
  }
  for (const c of categories) {
    for (const part of nameParts(c.name)) {
      const others = part === c.name ? [] : sharers(part, c.slug);
      if (others.length > 0) leaveOut(part, c.slug, others);
    }
  }
  return { lexicon, isShared, shared };
}
