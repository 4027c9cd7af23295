/**
 * The one reading of a request, for every reader: hybrid search (keyword side,
 * embedder, named service), AI recommend and its reasons. The text is tokenized
 * once (src/text/tokens.ts: tokenize); from those tokens the parser finds the
 * place (a city, province or region), the services (category slugs of the
 * snapshot), the budget and stated floors, the language, and the words search
 * ranks. Nothing downstream reads the text again.
 *
 * Pure: it reads only the text and a vocabulary (the snapshot's cities,
 * provinces and categories; see nl-query-vocabulary.ts), so tests can give it
 * any vocabulary. An LLM-backed parser could later implement the same function.
 */
import { citySlug } from '../text/city-slug.ts';
import { findBudget, type Budget } from './nl-query-budget.ts';
import { findConstraints } from './nl-query-constraints.ts';
import { AMBIGUOUS_PLACES, CITY_ALIASES, PLACE_WORDS, REGIONS } from '../text/lexicon/places.ts';
import { AGENT_NOUNS, SERVICE_PHRASES } from '../text/lexicon/services.ts';
import { ENGLISH_MARKERS, FILLER_WORDS, INDONESIAN_MARKERS, PURPOSE_WORDS } from '../text/lexicon/words.ts';
import { lexiconCategories } from './nl-query-lexicon-map.ts';
import { PhraseTable } from '../text/phrase-table.ts';
import { normalizeTokens, tokenize, tokensOutside } from '../text/tokens.ts';

export interface VocabularyCategory {
  slug: string;
  name: string;
  /** slug of the parent, null for a top-level category */
  parentSlug: string | null;
}

export interface Vocabulary {
  /** cities as the snapshot spells them (most common spelling per citySlug) */
  cities: readonly string[];
  /** provinces as the snapshot spells them */
  provinces: readonly string[];
  /** active categories whose parent (if any) is active */
  categories: readonly VocabularyCategory[];
}

export type Place =
  | { kind: 'city'; city: string; matched: string }
  | { kind: 'province'; province: string; matched: string }
  | { kind: 'region'; region: string; cities: string[]; matched: string };

export interface ServiceMatch {
  slug: string;
  name: string;
  /** the words of the request that named it, normalized ("toko online") */
  matched: string;
}

/** Words a search ranks, read once: the text and its tokens. */
export interface RequestWords {
  /** the words as one text (what an external embedder is sent) */
  text: string;
  /** folded tokens, spelled as the index spells them (normalizeTokens(text)) */
  tokens: readonly string[];
  /** whether the text ends inside a word: its last word may be typed halfway (a prefix) */
  endsInWord: boolean;
}

export interface ParsedRequest {
  lang: 'id' | 'en';
  place: Place | null;
  /** most specific first; a parent is dropped when one of its children was named */
  services: ServiceMatch[];
  /** services named only to qualify the main one ("graphic designer for social media posts") */
  qualifiers: ServiceMatch[];
  budget: Budget | null;
  /** stated floors ("trust level 4+", "terverifikasi", "rating minimal 4"), null when not stated */
  minTrustLevel: number | null;
  minRating: number | null;
  /** the words each constraint was read from */
  constraintText: string[];
  /** content words left after place, budget and filler words, in request order */
  terms: string[];
  /**
   * The words hybrid search ranks: the request as sent, or (ParseOptions.withoutFilters)
   * the request without its place, budget and constraints, the service phrases and the
   * other content words, for a reader that applies those as filters (AI recommend).
   */
  ranked: RequestWords;
}

export interface ParseOptions {
  /** rank the request without its place, budget and constraints (when at least 2 characters are left) */
  withoutFilters?: boolean;
}

type PlaceTarget =
  | { kind: 'city'; name: string }
  | { kind: 'province'; name: string }
  | { kind: 'region'; name: string; cities: string[] };

/** A vocabulary with its phrase tables: build it once per snapshot (the AI endpoint keeps it on the snapshot). */
export interface QueryParser {
  vocab: Vocabulary;
  places: PhraseTable<PlaceTarget>;
  services: PhraseTable<VocabularyCategory>;
}

export function queryParser(vocab: Vocabulary): QueryParser {
  const places = new PhraseTable<PlaceTarget>();
  const cityBySlug = new Map(vocab.cities.map((c) => [citySlug(c), c]));
  const provinceBySlug = new Map(vocab.provinces.map((p) => [citySlug(p), p]));
  // Cities before provinces: "Yogyakarta" the city, not "DI Yogyakarta" the province.
  for (const city of vocab.cities) places.add(city, { kind: 'city', name: city });
  for (const [alias, target] of Object.entries(CITY_ALIASES)) {
    const city = cityBySlug.get(citySlug(target));
    const province = provinceBySlug.get(citySlug(target));
    if (city) places.add(alias, { kind: 'city', name: city });
    else if (province) places.add(alias, { kind: 'province', name: province });
  }
  for (const province of vocab.provinces) places.add(province, { kind: 'province', name: province });
  for (const [region, names] of Object.entries(REGIONS)) {
    const cities = names.flatMap((n) => cityBySlug.get(citySlug(n)) ?? []);
    if (cities.length > 0) places.add(region, { kind: 'region', name: region, cities });
  }

  const services = new PhraseTable<VocabularyCategory>();
  const bySlug = new Map(vocab.categories.map((c) => [c.slug, c]));
  const addService = (phrase: string, c: VocabularyCategory) => {
    for (const form of withAgentForms(phrase)) services.add(form, c);
  };
  // The snapshot's own category names come first: "social media management" names that
  // category where the dataset has one, whatever the built-in lexicon groups it with.
  for (const c of vocab.categories) {
    for (const name of nameParts(c.name)) addService(name, c);
    addService(c.slug.replace(/-/g, ' '), c);
  }
  for (const [key, slug] of lexiconCategories(vocab.categories.map((c) => c.slug))) {
    const category = bySlug.get(slug)!;
    for (const phrase of SERVICE_PHRASES[key]!.split('|')) addService(phrase, category);
  }
  return { vocab, places, services };
}

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

/** A phrase and its agent forms: "graphic design" -> also "graphic designer(s)"; "desain grafis" -> "desainer grafis". */
function withAgentForms(phrase: string): string[] {
  const words = normalizeTokens(phrase);
  const forms = [words.join(' ')];
  for (const at of [0, words.length - 1]) {
    for (const agent of AGENT_NOUNS[words[at]!] ?? []) forms.push(words.map((w, i) => (i === at ? agent : w)).join(' '));
  }
  return [...new Set(forms)];
}

function detectLanguage(words: readonly string[]): 'id' | 'en' {
  let id = 0;
  let en = 0;
  for (const w of words) {
    if (INDONESIAN_MARKERS.has(w)) id++;
    if (ENGLISH_MARKERS.has(w)) en++;
  }
  return en > id ? 'en' : 'id';
}

const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

/** A text's words for a reader that ranks them without the rest of the parse (the benchmarks' side-alone runs, tests). */
export function requestWords(text: string): RequestWords {
  return { text, tokens: tokenize(text).tokens, endsInWord: ENDS_IN_WORD.test(text) };
}

export function parseRequest(text: string, parser: QueryParser, options: ParseOptions = {}): ParsedRequest {
  const { vocab, places, services } = parser;
  const read = tokenize(text);
  const constraints = findConstraints(text);
  const { budget, ranges } = findBudget(constraints.rest);
  const blanked = [...constraints.ranges, ...ranges];
  const words = blanked.length === 0 ? read.tokens : tokensOutside(read, blanked);
  const used = new Array<boolean>(words.length).fill(false);

  // A place: the first one named. Words that are also common words need a place word before them.
  const placeHits = places.find(words, (hit) => {
    if (!AMBIGUOUS_PLACES.has(hit.phrase)) return true;
    return hit.start > 0 && PLACE_WORDS.has(words[hit.start - 1]!);
  });
  const firstPlace = placeHits[0];
  let place: Place | null = null;
  if (firstPlace) {
    const { target, phrase: matched } = firstPlace;
    place =
      target.kind === 'city'
        ? { kind: 'city', city: target.name, matched }
        : target.kind === 'province'
          ? { kind: 'province', province: target.name, matched }
          : { kind: 'region', region: target.name, cities: target.cities, matched };
    for (const hit of placeHits) {
      for (let i = 0; i < hit.length; i++) used[hit.start + i] = true;
      // "di Bandung", "in Bandung": the place word goes with the place.
      if (hit.start > 0 && PLACE_WORDS.has(words[hit.start - 1]!)) used[hit.start - 1] = true;
    }
  }

  const placeUsed = [...used];
  // Services: every phrase outside the place, longest first.
  const free = words.map((w, i) => (used[i] ? '\u0000' : w));
  const serviceHits = services.find(free);
  const found: ServiceMatch[] = [];
  const qualifiers: ServiceMatch[] = [];
  for (const hit of serviceHits) {
    for (let i = 0; i < hit.length; i++) used[hit.start + i] = true;
    // A service named after "for"/"untuk" only qualifies what the request named before it: another
    // service, or any content word ("sistem kasir untuk toko online" asks for a cashier system).
    const purpose = words.findIndex((w, i) => i < hit.start && PURPOSE_WORDS.has(w));
    const headBefore = (at: number) =>
      serviceHits.some((h) => h.start < at) || words.slice(0, at).some((w, i) => !placeUsed[i] && !FILLER_WORDS.has(w) && w.length > 1);
    const qualifies = purpose >= 0 && headBefore(purpose);
    const list = qualifies ? qualifiers : found;
    if (![...found, ...qualifiers].some((s) => s.slug === hit.target.slug)) {
      list.push({ slug: hit.target.slug, name: hit.target.name, matched: hit.phrase });
    }
  }
  // A qualifier of the same family refines the service ("software house untuk sistem informasi"): it stays a service.
  const topOf = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug ?? slug;
  const families = new Set(found.map((s) => topOf(s.slug)));
  for (const q of qualifiers.filter((q) => families.has(topOf(q.slug)))) {
    found.push(q);
    qualifiers.splice(qualifiers.indexOf(q), 1);
  }
  const namedChildOf = (slug: string) => found.some((s) => vocab.categories.find((c) => c.slug === s.slug)?.parentSlug === slug);
  const isChild = (slug: string) => vocab.categories.find((c) => c.slug === slug)?.parentSlug != null;
  const specific = found.filter((s) => !namedChildOf(s.slug));
  specific.sort((a, b) => Number(isChild(b.slug)) - Number(isChild(a.slug)));

  const isTerm = (w: string, i: number) => !used[i] && !FILLER_WORDS.has(w) && (w.length > 1 || /\d/.test(w));
  const terms = words.filter(isTerm);
  // Without its place, budget and constraints: hybrid search drops filler itself, and a
  // filler word inside a name ("company profile") still counts there.
  const rest = words.filter((_, i) => !placeUsed[i]);
  const restText = rest.join(' ');
  const ranked: RequestWords =
    options.withoutFilters && [...restText].length >= 2
      ? { text: restText, tokens: rest, endsInWord: rest.length > 0 }
      : { text, tokens: read.tokens, endsInWord: ENDS_IN_WORD.test(text) };
  return {
    lang: detectLanguage(read.tokens),
    place,
    services: specific,
    qualifiers,
    budget,
    minTrustLevel: constraints.minTrustLevel,
    minRating: constraints.minRating,
    constraintText: constraints.read,
    terms,
    ranked,
  };
}
