/**
 * The place a request names, as a ranking tier of hybrid search (docs/interface.md,
 * "Search and ranking"): the request's reading (src/query/nl-query.ts) gives a
 * city, a province or a region; each candidate is
 *   "in"        in that place (the city; a province's or a region's cities),
 *   "near"      in its surroundings (a city's province and the regions it belongs
 *               to; the regions reaching into a province; a region's provinces),
 *   "elsewhere" anywhere else, or with no city.
 * Cities compare by citySlug (every spelling of a slug is the same city), and each
 * is tested through the city's filter set (src/query/filter-set.ts: a bitmap per
 * snapshot, computed for every city by the warm-up; a place's bitmaps are kept once
 * found), so a place costs a few bit tests per candidate and no SQL. placeFirst
 * orders the answer with it.
 */
import type { Place } from '../query/nl-query.ts';
import { allows, filterSet, type FilterSet } from '../query/filter-set.ts';
import { buildFilter } from '../query/filters.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { REGIONS } from '../text/lexicon/places.ts';
import { citySlug } from '../text/city-slug.ts';

export type PlaceTier = 'in' | 'near' | 'elsewhere';

/** Tests a candidate's rowid; built once per request that names a place. */
export type PlaceTest = (rowid: number) => PlaceTier;

interface PlaceIndex {
  /** every spelling of a city, by citySlug */
  spellings: Map<string, string[]>;
  /** the provinces (by citySlug of their names) a city's providers give, by the city's slug */
  provincesOf: Map<string, Set<string>>;
  /** the cities of a province, by the province's slug */
  citiesOf: Map<string, Set<string>>;
  /** each region's cities (slugs), once per distinct list */
  regions: Set<string>[];
  /** the bitmaps of each place asked for so far, by its kind and name */
  bitmaps: Map<string, { inside: Uint32Array[]; around: Uint32Array[] }>;
}

const PLACES_SQL = `SELECT city, province FROM published_places WHERE city IS NOT NULL AND city <> ''`;

/** The snapshot's cities, provinces and regions as the tier tests them (kept per snapshot; the warm-up reads it before serving). */
export function placeIndex(snapshot: Snapshot): PlaceIndex {
  return snapshot.memo('place-index', () => {
    const spellings = new Map<string, string[]>();
    const provincesOf = new Map<string, Set<string>>();
    const citiesOf = new Map<string, Set<string>>();
    const add = <K, V>(map: Map<K, Set<V>>, key: K, value: V) => (map.get(key) ?? map.set(key, new Set()).get(key)!).add(value);
    for (const { city, province } of snapshot.prepare<[], { city: string; province: string | null }>(PLACES_SQL).all()) {
      const slug = citySlug(city);
      const list = spellings.get(slug) ?? [];
      if (!list.includes(city)) spellings.set(slug, [...list, city]);
      if (province === null || citySlug(province) === '') continue;
      add(provincesOf, slug, citySlug(province));
      add(citiesOf, citySlug(province), slug);
    }
    const distinct = new Map<string, Set<string>>();
    for (const names of Object.values(REGIONS)) {
      const slugs = new Set(names.map(citySlug).filter((s) => spellings.has(s)));
      if (slugs.size > 0) distinct.set([...slugs].sort().join(' '), slugs);
    }
    return { spellings, provincesOf, citiesOf, regions: [...distinct.values()], bitmaps: new Map() };
  });
}

/** The cities (slugs) in a place and around it. */
function placeCities(index: PlaceIndex, place: Place): { inside: Set<string>; around: Set<string> } {
  const inside = new Set<string>();
  const around = new Set<string>();
  const provinceCities = (province: string) => index.citiesOf.get(province) ?? new Set<string>();
  if (place.kind === 'city') {
    const city = citySlug(place.city);
    inside.add(city);
    for (const province of index.provincesOf.get(city) ?? []) for (const c of provinceCities(province)) around.add(c);
    for (const region of index.regions) if (region.has(city)) for (const c of region) around.add(c);
  } else if (place.kind === 'province') {
    for (const c of provinceCities(citySlug(place.province))) inside.add(c);
    for (const region of index.regions) if ([...region].some((c) => inside.has(c))) for (const c of region) around.add(c);
  } else {
    for (const c of place.cities) inside.add(citySlug(c));
    for (const c of inside) for (const province of index.provincesOf.get(c) ?? []) for (const p of provinceCities(province)) around.add(p);
  }
  for (const c of inside) around.delete(c);
  return { inside, around };
}

/**
 * A candidate's place counts when it answers the request: it scores at least this
 * share of the best candidate's rrfScore and, when the request names a service, it
 * is of that service (namedService), or, when the request names none, its primary
 * category has a share of the top candidates' vote (categoryShare > 0). A provider
 * that only lives in the place named (a vector neighbour of another service, a
 * keyword match of a side word) does not pass one that answers the request.
 */
export const PLACE_BAND = 0.5;

const TIER_ORDER: Record<PlaceTier, number> = { in: 0, near: 1, elsewhere: 2 };

interface Placed {
  rrfScore: number;
  namedService: boolean;
  categoryShare: number;
  place: PlaceTier | null;
}

/**
 * The relevance order with the place first: the candidates that answer the request
 * (PLACE_BAND) rank in the place first, then near it, then elsewhere, each tier in
 * relevance order; the other candidates follow, in relevance order.
 */
export function placeFirst<C extends Placed>(candidates: readonly C[], byRelevance: (a: C, b: C) => number): (a: C, b: C) => number {
  let best = 0;
  let named = false;
  let voted = false;
  for (const c of candidates) {
    if (c.rrfScore > best) best = c.rrfScore;
    named ||= c.namedService;
    voted ||= c.categoryShare > 0;
  }
  const floor = best * PLACE_BAND;
  const answers = (c: C) => c.rrfScore >= floor && (named ? c.namedService : !voted || c.categoryShare > 0);
  const tier = (c: C) => (answers(c) ? TIER_ORDER[c.place ?? 'elsewhere'] : 3);
  return (a, b) => tier(a) - tier(b) || byRelevance(a, b);
}

/** The test of a place's tiers over the snapshot's providers; null when the request names no place. */
export function placeTest(snapshot: Snapshot, place: Place | null): PlaceTest | null {
  if (place === null) return null;
  const index = placeIndex(snapshot);
  const key = `${place.kind}\u0000${place.kind === 'city' ? place.city : place.kind === 'province' ? place.province : place.region}`;
  let bitmaps = index.bitmaps.get(key);
  if (!bitmaps) {
    const { inside, around } = placeCities(index, place);
    const setsOf = (cities: Set<string>): Uint32Array[] =>
      [...cities].flatMap((c) => index.spellings.get(c) ?? []).flatMap((city) => {
        const set: FilterSet | null = filterSet(snapshot, buildFilter(snapshot, { city }));
        return set ? [set.allowed] : [];
      });
    index.bitmaps.set(key, (bitmaps = { inside: setsOf(inside), around: setsOf(around) }));
  }
  const { inside, around } = bitmaps;
  return (rowid) => (inside.some((s) => allows(s, rowid)) ? 'in' : around.some((s) => allows(s, rowid)) ? 'near' : 'elsewhere');
}
