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
import { AGENT_NOUNS } from '../text/lexicon/services.ts';
import { ENGLISH_MARKERS, FILLER_WORDS, INDONESIAN_MARKERS, PURPOSE_WORDS } from '../text/lexicon/words.ts';
import { nameParts, servicePhrases, type ServiceCategory } from './service-phrases.ts';
import { PhraseTable } from '../text/phrase-table.ts';
import { isStopword, normalizeTokens, tokenize, tokensOutside } from '../text/tokens.ts';

export type VocabularyCategory = ServiceCategory;

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
   * The words hybrid search ranks: the request without its place (the place is a
   * ranking tier of its own), or, for a reader that applies them as filters (AI
   * recommend: ParseOptions.leaveOut 'filters'), without its place, budget and
   * stated floors. The request as sent when that leaves fewer than 2 characters.
   */
  ranked: RequestWords;
}

export interface ParseOptions {
  /**
   * What the ranked words leave out: the place (default); the place and the constraints a
   * filter applies ('filters'); or nothing (the evaluation's plain bm25 baseline).
   */
  leaveOut?: 'place' | 'filters' | 'nothing';
  /**
   * Which of the services a shared phrase stands for the request's other words favour, or
   * null (src/search/named-service.ts reads it from the snapshot's own text); without it a
   * shared phrase names nothing.
   */
  favoured?: (words: readonly string[], slugs: readonly string[]) => string | null;
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
  /** phrases several services share ("media sosial"), each with those services' slugs (service-phrases.ts) */
  shared: PhraseTable<string[]>;
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
  // category where the dataset has one, whatever the built-in lexicon groups it with. A
  // part of a name that another service's name holds too ("company profile") names neither.
  const phrases = servicePhrases(vocab.categories);
  for (const c of vocab.categories) {
    for (const name of nameParts(c.name)) if (name === c.name || !phrases.isShared(name, c.slug)) addService(name, c);
    addService(c.slug.replace(/-/g, ' '), c);
  }
  for (const [slug, list] of phrases.lexicon) for (const phrase of list) addService(phrase, bySlug.get(slug)!);
  const shared = new PhraseTable<string[]>();
  for (const [phrase, slugs] of phrases.shared) for (const form of withAgentForms(phrase)) shared.add(form, slugs);
  return { vocab, places, services, shared };
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
  const { tokens: words, from } = tokensOutside(read, blanked);
  const used = new Array<boolean>(words.length).fill(false);

  // A place: the first one named. Words that are also common words ("medan", "malang") need a
  // place word before them, or to end the request ("jasa foto Malang"): said last, a name is a place.
  const placeHits = places.find(words, (hit) => {
    if (!AMBIGUOUS_PLACES.has(hit.phrase)) return true;
    return (hit.start > 0 && PLACE_WORDS.has(words[hit.start - 1]!)) || (hit.start + hit.length === words.length && hit.start > 0);
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
  // A phrase several services share ("media sosial") names the one the request's other words favour, if any.
  const sharedHits = options.favoured ? parser.shared.find(free) : [];
  if (sharedHits.length > 0) {
    const within = (h: { start: number; length: number }, i: number) => i >= h.start && i < h.start + h.length;
    const named = (i: number) => serviceHits.some((h) => within(h, i));
    for (const hit of sharedHits) {
      if (Array.from({ length: hit.length }, (_, k) => hit.start + k).some(named)) continue;
      const others = words.filter((w, i) => !used[i] && !named(i) && !within(hit, i) && !FILLER_WORDS.has(w) && !isStopword(w));
      const category = vocab.categories.find((c) => c.slug === options.favoured!(others, hit.target));
      if (category) serviceHits.push({ ...hit, target: category });
    }
    serviceHits.sort((a, b) => a.start - b.start);
  }
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
  // The words ranked: the request without its place (the place is a tier of the order), or
  // without its place, budget and constraints for a reader that filters on them. Filler stays:
  // hybrid search drops it itself, and a filler word inside a name ("company profile") counts there.
  const whole: RequestWords = { text, tokens: read.tokens, endsInWord: ENDS_IN_WORD.test(text) };
  let ranked = whole;
  if (options.leaveOut === 'filters') {
    const rest = words.filter((_, i) => !placeUsed[i]);
    if ([...rest.join(' ')].length >= 2) ranked = { text: rest.join(' '), tokens: rest, endsInWord: rest.length > 0 };
  } else if (place && options.leaveOut !== 'nothing') {
    const placeTokens = new Set(from.filter((_, i) => placeUsed[i]));
    const kept = read.tokens.flatMap((t, i) => (placeTokens.has(i) ? [] : [i]));
    const rest = kept.map((i) => read.tokens[i]!);
    // the last word is still being typed only when it ends the request
    const endsInWord = whole.endsInWord && kept.at(-1) === read.tokens.length - 1;
    if ([...rest.join(' ')].length >= 2) ranked = { text: rest.join(' '), tokens: rest, endsInWord };
  }
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
