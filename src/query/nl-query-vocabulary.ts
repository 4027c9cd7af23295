/**
 * The parser's vocabulary read from the snapshot: the cities and provinces of
 * published providers (from published_places, counted by the builder) and the
 * usable categories. Computed once per snapshot.
 */
import type { Snapshot } from './snapshot.ts';
import { queryParser, type QueryParser, type Vocabulary, type VocabularyCategory } from './nl-query.ts';

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
    const categories = snapshot.prepare<[], VocabularyCategory>(CATEGORIES_SQL).all();
    return { cities, provinces, categories };
  });
}

/** The parser over the snapshot's vocabulary, built once per snapshot (AI recommend and hybrid search read it). */
export function snapshotQueryParser(snapshot: Snapshot): QueryParser {
  return snapshot.memo('nl-query-parser', () => queryParser(vocabularyOf(snapshot)));
}
