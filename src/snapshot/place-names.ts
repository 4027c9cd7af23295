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

/** Spelling -> name of every spelling in published_places, for `column`. */
function namesNow(db: Database.Database, column: 'city' | 'province'): Map<string, string> {
  const spellings = db.prepare<[], { spelling: string; n: number }>(SPELLINGS_SQL(column)).all();
  const renamed = renamedSpellings(spellings);
  return new Map(spellings.map(({ spelling }) => [spelling, renamed.get(spelling) ?? spelling]));
}

/**
 * An incremental build's places (build-incremental.ts): published_places counted
 * again with the providers replaced (`removed`, their old rows) and written
 * (`written`, rows already in), then every spelling whose name is not what it was
 * renamed as writePlaceNames would name it, and the rows written named.
 * Returns the rowids whose names changed (their summaries and facts change).
 */
export function updatePlaces(
  db: Database.Database,
  removed: readonly { city: string | null; city_slug: string | null; province: string | null }[],
  written: readonly number[],
): number[] {
  const before = { city: namesNow(db, 'city'), province: namesNow(db, 'province') };
  const key = (r: { city: string | null; city_slug: string | null; province: string | null }) => JSON.stringify([r.city, r.city_slug, r.province]);
  const counts = new Map<string, number>();
  for (const r of db.prepare('SELECT city, city_slug, province, providers FROM published_places').all() as { city: string | null; city_slug: string | null; province: string | null; providers: number }[]) counts.set(key(r), r.providers);
  for (const r of removed) counts.set(key(r), (counts.get(key(r)) ?? 0) - 1);
  const newRows = db.prepare('SELECT city, city_slug, province FROM published_providers WHERE rowid IN (SELECT value FROM json_each(?))').all(JSON.stringify(written)) as { city: string | null; city_slug: string | null; province: string | null }[];
  for (const r of newRows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  const changed = new Set<number>();
  db.transaction(() => {
    db.exec('DELETE FROM published_places');
    const insert = db.prepare('INSERT INTO published_places (city, city_slug, city_name, province, province_name, providers) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [k, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (n <= 0) continue;
      const [city, slug, province] = JSON.parse(k) as [string | null, string | null, string | null];
      insert.run(city, slug, city, province, province, n);
    }
    for (const column of ['city', 'province'] as const) {
      const after = namesNow(db, column);
      const rowsOf = db.prepare(`SELECT rowid FROM providers WHERE ${column} = ? COLLATE NOCASE AND ${column} = ?`).pluck();
      const [renameRows, renamePlaces] = RENAME_SQL(column).map((sql) => db.prepare(sql));
      for (const spelling of new Set([...before[column].keys(), ...after.keys()])) {
        const name = after.get(spelling) ?? spelling;
        if (name !== spelling) renamePlaces!.run({ name, spelling });
        if (name === (before[column].get(spelling) ?? spelling)) continue;
        for (const rowid of rowsOf.all(spelling, spelling) as number[]) changed.add(rowid);
        renameRows!.run({ name, spelling });
      }
      // the rows written hold their own spelling as their name
      const own = db.prepare(`UPDATE providers SET ${column}_name = ? WHERE rowid = ?`);
      for (const r of db.prepare(`SELECT rowid, ${column} AS spelling FROM providers WHERE rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(written)) as { rowid: number; spelling: string | null }[]) {
        if (r.spelling !== null) own.run(after.get(r.spelling) ?? r.spelling, r.rowid);
      }
    }
  })();
  return [...changed];
}
