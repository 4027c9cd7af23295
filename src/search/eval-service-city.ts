/**
 * "Service in a city": the request a directory exists for, asked the ways people
 * ask it. Phrases written for this check (data/eval/service-city.json, keyed by
 * category slug, Indonesian and English) are asked with each of the cities that have
 * the most providers, "PHRASE CITY" and "PHRASE di CITY" (or "PHRASE in CITY"),
 * through the same searchProviders the API calls, and the top 10 is scored against
 * the snapshot itself:
 *  - serviceInCity: the share of what the snapshot can supply that the top 10 holds
 *    (providers of the service, by primary category, a child counting under its
 *    parent, in the city named: |top 10 with both| / min(10, |snapshot with both|)),
 *    over the requests where the snapshot has at least one;
 *  - rightService: the share of the top 10 of the service named, over what the
 *    snapshot can supply (a service of 4 providers fills at most 4 places);
 *  - inCity: the share of the top 10 in the city named.
 * Cities compare by citySlug. The phrases are never read by search.
 */
import fs from 'node:fs';
import { categoryFilterIds, categoryTree, usableCategory } from '../query/categories.ts';
import { vocabularyOf } from '../query/nl-query-vocabulary.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { citySlug } from '../text/city-slug.ts';
import { searchProviders } from './search.ts';

export interface ServiceCityPhrases {
  phrases: Record<string, { id: string[]; en: string[] }>;
}

export interface ServiceCityReport {
  requests: number;
  /** requests whose service and city the snapshot has together */
  supplied: number;
  serviceInCity: number;
  rightService: number;
  inCity: number;
  cities: string[];
  /** each request: the top 10's right-service and service-in-city shares (null when the snapshot has none in the city) */
  perRequest: { q: string; rightService: number; serviceInCity: number | null }[];
}

const K = 10;
const CITIES = 12;

export function loadServiceCityPhrases(file: string): ServiceCityPhrases {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ServiceCityPhrases;
}

/** The published providers' primary category id and city slug by slug. */
function providerFacts(snapshot: Snapshot): Map<string, { category: string; city: string }> {
  const rows = snapshot
    .prepare<[], { slug: string; category: string; city: string | null }>(
      `SELECT p.slug, pc.category_id AS category, p.city FROM published_providers p
       JOIN provider_categories pc ON pc.provider_rowid = p.rowid AND pc.position = 0`,
    )
    .all();
  return new Map(rows.map((r) => [r.slug, { category: r.category, city: r.city === null ? '' : citySlug(r.city) }]));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;

export async function evaluateServiceInCity(snapshot: Snapshot, phrases: ServiceCityPhrases): Promise<ServiceCityReport> {
  const facts = providerFacts(snapshot);
  const tree = categoryTree(snapshot);
  // the parser's cities, most providers first, as the snapshot spells them
  const cities = vocabularyOf(snapshot).cities.slice(0, CITIES);
  const held: number[] = [];
  const right: number[] = [];
  const inCity: number[] = [];
  const perRequest: ServiceCityReport['perRequest'] = [];
  for (const [slug, byLanguage] of Object.entries(phrases.phrases)) {
    const node = usableCategory(tree, slug);
    if (!node) continue;
    const service = new Set(categoryFilterIds(tree, node));
    for (const city of cities) {
      const place = citySlug(city);
      const offered = [...facts.values()].filter((f) => service.has(f.category)).length;
      const supply = [...facts.values()].filter((f) => service.has(f.category) && f.city === place).length;
      const requests = [
        ...byLanguage.id.flatMap((p) => [`${p} ${city}`, `${p} di ${city}`]),
        ...byLanguage.en.flatMap((p) => [`${p} ${city}`, `${p} in ${city}`]),
      ];
      for (const q of requests) {
        const result = await searchProviders(snapshot, { query: q, filters: {}, sort: 'relevance', page: 1, limit: K });
        const top = result.items.map((h) => facts.get(h.summary.slug)!);
        if (top.length === 0 || offered === 0) continue;
        const rightService = top.filter((f) => service.has(f.category)).length / Math.min(top.length, offered);
        right.push(rightService);
        inCity.push(top.filter((f) => f.city === place).length / top.length);
        const both = top.filter((f) => service.has(f.category) && f.city === place).length;
        const serviceInCity = supply === 0 ? null : both / Math.min(K, supply);
        if (serviceInCity !== null) held.push(serviceInCity);
        perRequest.push({ q, rightService: round(rightService), serviceInCity: serviceInCity === null ? null : round(serviceInCity) });
      }
    }
  }
  return {
    requests: right.length,
    supplied: held.length,
    serviceInCity: round(mean(held)),
    rightService: round(mean(right)),
    inCity: round(mean(inCity)),
    cities,
    perRequest,
  };
}
