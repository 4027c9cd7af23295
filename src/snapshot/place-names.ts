/**
 * The names shown for places (docs/interface.md, "Place names"): every spelling of
 * a city (one citySlug) or of a province gets the one name `placeName` picks from
 * the spellings of the published providers, as published_places counts them. The
 * writer stores each row with its own spelling as its name, so only the spellings
 * named otherwise are updated ("DENPASAR" and "denpasar" -> "Denpasar"): a few rows,
 * found through the case-insensitive indexes on city and province.
 */
import type Database from 'better-sqlite3';
import { citySlug, placeName } from '../text/city-slug.ts';

const SPELLINGS_SQL = (column: 'city' | 'province') =>
  `SELECT ${column} AS spelling, SUM(providers) AS n FROM published_places WHERE ${column} IS NOT NULL GROUP BY ${column}`;

const RENAME_SQL = (column: 'city' | 'province') => [
  `UPDATE providers SET ${column}_name = :name WHERE ${column} = :spelling COLLATE NOCASE AND ${column} = :spelling`,
  `UPDATE published_places SET ${column}_name = :name WHERE ${column} = :spelling`,
];

/** Spelling -> the name of its place, for the spellings named otherwise. */
export function renamedSpellings(spellings: { spelling: string; n: number }[]): Map<string, string> {
  const places = new Map<string, Map<string, number>>();
  for (const { spelling, n } of spellings) {
    // A spelling with no letter or digit has no slug: it is a place of its own.
    const key = citySlug(spelling) || `\u0000${spelling}`;
    const place = places.get(key) ?? new Map<string, number>();
    place.set(spelling, n);
    places.set(key, place);
  }
  const renamed = new Map<string, string>();
  for (const place of places.values()) {
    const name = placeName(place);
    for (const spelling of place.keys()) if (spelling !== name) renamed.set(spelling, name);
  }
  return renamed;
}

/**
 * Runs after published_places is counted (each row's names still its spellings) and
 * before published_summaries is copied. Every providers row must hold its own
 * spelling as its name, as the writer stores it: a spelling that names its place
 * is not visited.
 */
export function writePlaceNames(db: Database.Database): void {
  db.transaction(() => {
    for (const column of ['city', 'province'] as const) {
      const spellings = db.prepare<[], { spelling: string; n: number }>(SPELLINGS_SQL(column)).all();
      const statements = RENAME_SQL(column).map((sql) => db.prepare(sql));
      for (const [spelling, name] of renamedSpellings(spellings)) for (const s of statements) s.run({ name, spelling });
    }
  })();
}
