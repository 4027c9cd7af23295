/**
 * The parser's vocabulary read from the snapshot: the cities and provinces of
 * published providers (from published_places, counted by the builder) and the
 * usable categories, each with the words of its name and their translations
 * through the snapshot's language bridge (src/language/bridge-table.ts: "Social
 * Media Management" is also "media sosial"). Computed once per snapshot.
 */
import { bridgeLookup, type BridgeLookup } from '../language/bridge-table.ts';
import { normalizeTokens } from '../text/tokens.ts';
import type { Snapshot } from './snapshot.ts';
import { queryParser, type QueryParser, type Vocabulary, type VocabularyCategory } from './nl-query.ts';
import { contentWords, nameWords } from './service-phrases.ts';

// Cities by their names shown (one per citySlug, src/snapshot/place-names.ts), most providers first.
const CITIES_SQL = `
  SELECT city_name AS city, city_slug AS citySlug, SUM(providers) AS n
  FROM published_places
  WHERE city_name IS NOT NULL AND city_slug IS NOT NULL AND city_slug <> ''
  GROUP BY city_name
  ORDER BY n DESC, city`;

const PROVINCES_SQL = `
  SELECT DISTINCT province_name AS province FROM published_places WHERE province_name IS NOT NULL ORDER BY province`;

// Usable categories: active, under an active parent when they have one.
const CATEGORIES_SQL = `
  SELECT c.slug, c.name, p.slug AS parentSlug
  FROM categories c LEFT JOIN categories p ON p.id = c.parent_id
  WHERE c.active = 1 AND (c.parent_id IS NULL OR p.active = 1)
  ORDER BY c.position`;

/** A name's words, and the words of the bridge's alternatives for each of its words and pairs of words. */
function formsOf(c: VocabularyCategory, bridge: BridgeLookup): string[] {
  const tokens = normalizeTokens(c.name);
  const phrases = [...tokens, ...tokens.slice(1).map((t, i) => `${tokens[i]} ${t}`)];
  const translated = phrases.flatMap((p) => bridge(p).flatMap((a) => contentWords(a.phrase)));
  return [...new Set([...nameWords(c), ...translated])];
}

export function vocabularyOf(snapshot: Snapshot): Vocabulary {
  return snapshot.memo('nl-query-vocabulary', () => {
    const seen = new Set<string>();
    const cities: string[] = [];
    for (const row of snapshot.prepare<[], { city: string; citySlug: string }>(CITIES_SQL).all()) {
      if (seen.has(row.citySlug)) continue;
      seen.add(row.citySlug);
      cities.push(row.city);
    }
    const provinces = snapshot.prepare<[], { province: string }>(PROVINCES_SQL).all().map((r) => r.province);
    const bridge = bridgeLookup(snapshot.db);
    const categories = snapshot.prepare<[], VocabularyCategory>(CATEGORIES_SQL).all().map((c) => ({ ...c, forms: formsOf(c, bridge) }));
    return { cities, provinces, categories };
  });
}

/** The parser over the snapshot's vocabulary, built once per snapshot (AI recommend and hybrid search read it). */
export function snapshotQueryParser(snapshot: Snapshot): QueryParser {
  return snapshot.memo('nl-query-parser', () => queryParser(vocabularyOf(snapshot)));
}
