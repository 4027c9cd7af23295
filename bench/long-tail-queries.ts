/**
 * The long-tail query mix: thousands of distinct searches drawn from the
 * providers' own text, the way a crowd of users (and agents) ask, instead of the
 * generator's concept list:
 *  - word mixes (60%): 1-4 words, each drawn by its frequency in the sampled
 *    taglines and descriptions, function words ("di", "dari", "untuk", "in", "the")
 *    included as often as the text uses them;
 *  - spans (30%): 2-6 consecutive words of a tagline or a description sentence;
 *  - sentences (10%): a whole tagline or short description sentence (up to 10 words).
 * 20% carry a `city` filter (cities by how many providers they have), 10% a
 * `categorySlug` filter (usable categories). Every query (text + filters) is
 * distinct. Deterministic for a seed and a snapshot.
 */
import Database from 'better-sqlite3';
import { prng } from './queries.ts';

export interface LongTailQuery {
  q: string;
  city?: string;
  categorySlug?: string;
  kind: 'words' | 'span' | 'sentence';
}

/** Providers whose text is sampled (evenly spaced by rowid). */
const SAMPLE = 20_000;

interface Corpus {
  /** every word occurrence of the sample (drawing one at random is drawing by frequency) */
  words: string[];
  sentences: string[][];
  cities: string[];
  categories: string[];
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

function readCorpus(snapshotFile: string): Corpus {
  const db = new Database(snapshotFile, { readonly: true, fileMustExist: true });
  try {
    const published = db.prepare('SELECT count(*) FROM published_providers').pluck().get() as number;
    const stride = Math.max(1, Math.floor(published / SAMPLE));
    const rows = db
      .prepare(`SELECT tagline, description FROM published_providers p WHERE p.rowid % ? = 0 LIMIT ${SAMPLE}`)
      .all(stride) as { tagline: string | null; description: string | null }[];
    const words: string[] = [];
    const sentences: string[][] = [];
    for (const r of rows) {
      for (const text of [r.tagline ?? '', ...(r.description ?? '').split(/[.!?]\s+/)]) {
        const w = wordsOf(text);
        if (w.length === 0) continue;
        words.push(...w);
        sentences.push(w);
      }
    }
    // one entry per provider: a city drawn from this list is drawn by provider count
    const cities = db.prepare(`SELECT city FROM published_providers p WHERE p.rowid % ? = 0 AND city IS NOT NULL AND city != ''`).pluck().all(stride) as string[];
    const categories = db.prepare('SELECT c.slug FROM categories c LEFT JOIN categories parent ON parent.id = c.parent_id WHERE c.active = 1 AND (c.parent_id IS NULL OR parent.active = 1) ORDER BY c.slug').pluck().all() as string[];
    return { words, sentences, cities, categories };
  } finally {
    db.close();
  }
}

export function buildLongTailMix(snapshotFile: string, count: number, seed = 913): LongTailQuery[] {
  const corpus = readCorpus(snapshotFile);
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const seen = new Set<string>();
  const out: LongTailQuery[] = [];
  for (let attempts = 0; out.length < count && attempts < count * 50; attempts++) {
    const r = rand();
    let q: string;
    let kind: LongTailQuery['kind'];
    if (r < 0.6) {
      kind = 'words';
      q = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(corpus.words)).join(' ');
    } else if (r < 0.9) {
      kind = 'span';
      const sentence = pick(corpus.sentences);
      const length = Math.min(sentence.length, 2 + Math.floor(rand() * 5));
      const start = Math.floor(rand() * (sentence.length - length + 1));
      q = sentence.slice(start, start + length).join(' ');
    } else {
      kind = 'sentence';
      q = pick(corpus.sentences).slice(0, 10).join(' ');
    }
    if ([...q].length < 2) continue;
    const f = rand();
    const city = f < 0.2 ? pick(corpus.cities) : undefined;
    const categorySlug = f >= 0.2 && f < 0.3 ? pick(corpus.categories) : undefined;
    const key = `${q}\u0000${city ?? ''}\u0000${categorySlug ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ q, kind, ...(city ? { city } : {}), ...(categorySlug ? { categorySlug } : {}) });
  }
  return out;
}

export function longTailPath(query: LongTailQuery): string {
  const params = new URLSearchParams({ q: query.q });
  if (query.city) params.set('city', query.city);
  if (query.categorySlug) params.set('categorySlug', query.categorySlug);
  return `/api/v1/search?${params}`;
}
