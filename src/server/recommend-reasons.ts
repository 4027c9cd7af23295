/**
 * Each recommendation's `reason`, built only from evidence about that provider:
 * which of the request's words occur where (name, tagline, description, tags,
 * category), its city, trust level, rating and review count, public proofs, and
 * (only when displayable) its minimum project budget against the asked budget.
 * The company name leads, so two reasons in one answer never read the same.
 * Written in the request's language.
 */
import type { ParsedRequest } from '../query/nl-query.ts';
import { FILLER_WORDS } from '../text/lexicon/words.ts';
import { containsPhrase } from '../text/phrase-table.ts';
import { normalizeTokens } from '../text/tokens.ts';
import { displayableMinBudget, formatRating } from '../query/projections.ts';
import type { ProviderRow } from '../query/provider-row.ts';
import { isRated, type CategoryRef } from '../schemas/provider.ts';
import { formatRupiah } from '../text/format.ts';

export type Field = 'name' | 'tagline' | 'description' | 'tags' | 'category';

export interface ReasonEvidence {
  companyName: string;
  /** request phrases found in this provider's own fields */
  matches: { phrase: string; fields: Field[] }[];
  /** the provider's categories among the services the request named */
  serviceCategories: string[];
  city: string | null;
  trustLevel: number;
  /** the overall rating, or null when the provider has no reviews (and so no rating) */
  rating: string | null;
  reviews: number;
  publicProofs: number;
  /** displayable minimum project budget when the request named a budget it fits */
  budgetFit: { minIdr: number; maxIdr: number } | null;
  /** 1-based rank on the vector side when no word matched (found by meaning) */
  vectorRank: number | null;
}

export interface EvidenceInput {
  row: ProviderRow;
  categories: CategoryRef[];
  publicProofs: number;
  /** rank on the vector side, or null when that side did not return the provider */
  vectorRank: number | null;
}

const jsonList = (text: string) => JSON.parse(text) as string[];

/** The topic words of a phrase of the request (tokens joined by spaces): "jasa seo" is evidence of "seo", not of "jasa". */
const topicOf = (phrase: string) => phrase.split(' ').filter((w) => w.length > 0 && !FILLER_WORDS.has(w));

export function gatherEvidence(
  input: EvidenceInput,
  parsed: ParsedRequest,
  parentOf: (slug: string) => string | null,
): ReasonEvidence {
  const { row, categories } = input;
  const fields: [Field, string[]][] = [
    ['name', normalizeTokens(row.company_name)],
    ['tagline', normalizeTokens(row.tagline)],
    ['description', normalizeTokens(row.description)],
    ['tags', normalizeTokens([...jsonList(row.capability_tags), ...jsonList(row.industry_focus)].join(' | '))],
    ['category', normalizeTokens(categories.map((c) => c.name).join(' | '))],
  ];
  const phrases = [...new Set([...parsed.services.map((s) => s.matched), ...parsed.terms].map((p) => topicOf(p).join(' ')))];
  const matches = phrases.flatMap((phrase) => {
    const words = phrase === '' ? [] : phrase.split(' ');
    if (words.length === 0) return [];
    const where = fields.filter(([, t]) => containsPhrase(t, words)).map(([f]) => f);
    return where.length ? [{ phrase, fields: where }] : [];
  });
  const wanted = new Set(parsed.services.map((s) => s.slug));
  const minBudget = displayableMinBudget(row);
  const budgetFit =
    parsed.budget && minBudget !== null && minBudget <= parsed.budget.maxIdr
      ? { minIdr: minBudget, maxIdr: parsed.budget.maxIdr }
      : null;
  return {
    companyName: row.company_name,
    matches,
    // A provider in a child category serves the parent the request named ("mobile app" -> Android).
    serviceCategories: categories.filter((c) => wanted.has(c.slug) || wanted.has(parentOf(c.slug) ?? '')).map((c) => c.name),
    city: row.city_name,
    trustLevel: row.trust_level,
    rating: isRated(row.total_reviews) ? formatRating(row.overall_rating) : null,
    reviews: row.total_reviews,
    publicProofs: input.publicProofs,
    budgetFit,
    vectorRank: matches.length === 0 ? input.vectorRank : null,
  };
}

const WORDS = {
  id: {
    field: { name: 'nama', tagline: 'tagline', description: 'deskripsi', tags: 'tag', category: 'kategori' } as Record<Field, string>,
    and: 'dan',
    matches: (list: string) => `cocok dengan ${list}`,
    at: (phrase: string, where: string) => `“${phrase}” di ${where}`,
    byMeaning: (rank: number) => `mirip secara makna dengan permintaan (peringkat vektor ${rank})`,
    category: (names: string) => `terdaftar di kategori ${names}`,
    city: (city: string) => `berlokasi di ${city}`,
    trust: (level: number) => `trust level ${level}/5`,
    rating: (r: string | null, n: number) => (r === null ? 'belum ada ulasan' : `rating ${r} dari ${n} ulasan`),
    proofs: (n: number) => (n === 0 ? 'belum ada bukti publik' : `${n} bukti publik`),
    budget: (min: string, max: string) => `proyek minimum ${min} masuk budget ${max}`,
  },
  en: {
    field: { name: 'name', tagline: 'tagline', description: 'description', tags: 'tags', category: 'category' } as Record<Field, string>,
    and: 'and',
    matches: (list: string) => `matches ${list}`,
    at: (phrase: string, where: string) => `“${phrase}” in its ${where}`,
    byMeaning: (rank: number) => `close in meaning to the request (vector rank ${rank})`,
    category: (names: string) => `listed under ${names}`,
    city: (city: string) => `based in ${city}`,
    trust: (level: number) => `trust level ${level}/5`,
    rating: (r: string | null, n: number) => (r === null ? 'no reviews yet' : `rated ${r} from ${n} ${n === 1 ? 'review' : 'reviews'}`),
    proofs: (n: number) => (n === 0 ? 'no public proofs yet' : `${n} public ${n === 1 ? 'proof' : 'proofs'}`),
    budget: (min: string, max: string) => `minimum project ${min} fits the ${max} budget`,
  },
} as const;

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

export function reasonText(e: ReasonEvidence, lang: 'id' | 'en'): string {
  const w = WORDS[lang];
  const parts: string[] = [];
  if (e.matches.length > 0) {
    const shown = e.matches.slice(0, 3).map((m) => w.at(m.phrase, joinList(m.fields.map((f) => w.field[f]), w.and)));
    parts.push(w.matches(joinList(shown, w.and)));
  } else if (e.vectorRank !== null) {
    parts.push(w.byMeaning(e.vectorRank));
  }
  if (e.serviceCategories.length > 0) parts.push(w.category(joinList(e.serviceCategories, w.and)));
  if (e.city) parts.push(w.city(e.city));
  parts.push(w.trust(e.trustLevel), w.rating(e.rating, e.reviews), w.proofs(e.publicProofs));
  if (e.budgetFit) parts.push(w.budget(formatRupiah(e.budgetFit.minIdr), formatRupiah(e.budgetFit.maxIdr)));
  return `${e.companyName}: ${parts.join('; ')}.`;
}
