/**
 * The fixed query mix of the search benchmark: deterministic for a seed, drawn from
 * the generator's own vocabulary (service terms in Indonesian and English, tags,
 * cities, categories) so that queries match the dataset the way users' queries do.
 *
 * Classes (reported separately, because they cost very different amounts):
 *   common-1   one very common word ("jasa", "website", "digital"): matches a large
 *              share of the corpus, the expensive case for any bm25 index
 *   rare-1     one rare word (a tool or capability tag)
 *   phrase-id  2-5 words of an Indonesian service term, sometimes with a feature
 *   phrase-en  2-5 words of an English service term
 *   mixed      a common word plus specific ones ("jasa seo surabaya murah")
 * About a third carry a city filter, a quarter a category filter, some both.
 */
import { CATEGORIES, CONCEPTS, PLACES } from '../src/generate/index.ts';

export type QueryClass = 'common-1' | 'rare-1' | 'phrase-id' | 'phrase-en' | 'mixed';

export interface BenchQuery {
  q: string;
  city?: string;
  categorySlug?: string;
  cls: QueryClass;
  /** class plus "+city" / "+category" for the breakdown */
  label: string;
}

export const COMMON_WORDS = ['jasa', 'website', 'digital', 'aplikasi', 'marketing', 'development', 'agency', 'indonesia', 'software', 'design'];
const QUALIFIERS = ['murah', 'terbaik', 'profesional', 'terpercaya', 'best', 'affordable', 'startup', 'umkm'];

/** mulberry32: tiny, fast, and the same on every machine */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);
const clip = (s: string, max: number) => words(s).slice(0, max).join(' ');

export function buildQueryMix(count: number, seed = 7): BenchQuery[] {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  // categories a user can filter on: active, under an active parent
  const activeIds = new Set(CATEGORIES.filter((c) => c.active).map((c) => c.id));
  const activeCategories = CATEGORIES.filter((c) => c.active && (c.parentId === null || activeIds.has(c.parentId))).map((c) => c.slug);
  // the API's city filter is the city as people write it (exact, case-insensitive)
  const cities = PLACES.map((p) => p.city);
  const tags = [...new Set(CONCEPTS.flatMap((c) => c.tags))];
  // Deterministic rotation of classes: the mix is the same whatever `count` is.
  const classes: QueryClass[] = ['common-1', 'rare-1', 'phrase-id', 'phrase-en', 'mixed', 'phrase-id', 'phrase-en', 'mixed', 'common-1', 'phrase-id'];
  const out: BenchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const cls = classes[i % classes.length]!;
    const concept = pick(CONCEPTS);
    let q: string;
    switch (cls) {
      case 'common-1':
        q = pick(COMMON_WORDS);
        break;
      case 'rare-1':
        q = words(pick(tags))[0]!;
        break;
      case 'phrase-id': {
        const term = pick(concept.termsId);
        q = rand() < 0.3 ? clip(`${term} ${pick(concept.featuresId)}`, 5) : clip(term, 5);
        break;
      }
      case 'phrase-en': {
        const term = pick(concept.termsEn);
        q = rand() < 0.3 ? clip(`${term} ${pick(concept.featuresEn)}`, 5) : clip(term, 5);
        break;
      }
      case 'mixed':
        q = clip(`${pick(COMMON_WORDS)} ${pick([...concept.termsId, ...concept.termsEn])} ${pick(QUALIFIERS)}`, 5);
        break;
    }
    const filter = rand();
    const city = filter < 0.35 || filter >= 0.9 ? pick(cities) : undefined;
    const categorySlug = filter >= 0.65 ? pick(activeCategories) : undefined;
    const label = `${cls}${city ? '+city' : ''}${categorySlug ? '+category' : ''}`;
    out.push({ q, cls, label, ...(city ? { city } : {}), ...(categorySlug ? { categorySlug } : {}) });
  }
  return out;
}

/** An evenly spread subset with the same mix of classes and filters, for slow peers. */
export function stratifiedSubset<T>(list: readonly T[], size: number): T[] {
  if (size >= list.length) return [...list];
  // Offset within each stride so a periodic mix (the class rotation) is not aliased.
  const step = list.length / size;
  const stride = Math.max(1, Math.floor(step));
  return Array.from({ length: size }, (_, i) => list[Math.min(list.length - 1, Math.floor(i * step) + (i % stride))]!);
}
