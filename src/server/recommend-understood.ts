/**
 * `meta.understood` of /api/ai/recommend: what was read from the request and
 * applied, so a client can show it ("Jabodetabek: 10 cities, trust level 4+,
 * budget up to Rp 150.000.000") and a user can see when a word was missed.
 */
import * as z from 'zod';
import type { SearchFilters } from '../query/filters.ts';
import type { ParsedRequest } from '../query/nl-query.ts';
import { UnderstoodServiceSchema } from '../schemas/api/responses.ts';


export const UnderstoodSchema = z
  .object({
    language: z.enum(['id', 'en']).describe('the language reasons are written in'),
    place: z
      .object({
        kind: z.enum(['city', 'province', 'region']),
        name: z.string().describe('the city, province or region as applied'),
        matched: z.string().describe('the words of the request that named it; "city" when the city parameter was sent'),
        cities: z.array(z.string()).describe('the cities a region stands for (empty for a city or province)'),
      })
      .nullable()
      .describe('the place filter, or null when none was named'),
    services: z.array(UnderstoodServiceSchema).describe('services named, most specific first'),
    qualifiers: z.array(UnderstoodServiceSchema).describe('services named only to qualify the main one ("for social media posts"); not filtered on'),
    categorySlug: z.string().nullable().describe('the category asked for: its providers come first; a short list is filled from its family, then from other categories'),
    minTrustLevel: z.number().int().nullable().describe('stated trust level floor, applied as a filter'),
    minRating: z.number().nullable().describe('stated rating floor, applied as a filter'),
    maxBudgetIdr: z.number().int().nullable().describe('stated budget ceiling in IDR, applied to displayable minimum project budgets'),
    read: z.array(z.string()).describe('the words constraints and the budget were read from'),
    searchText: z.string().describe('the words ranked by hybrid search'),
  })
  .describe('what was read from q and how it was applied');
export type Understood = z.output<typeof UnderstoodSchema>;

export function understoodOf(parsed: ParsedRequest, filters: SearchFilters, categorySlug: string | null): Understood {
  const place: Understood['place'] =
    filters.city !== undefined
      ? {
          kind: 'city',
          name: filters.city,
          matched: parsed.place?.kind === 'city' && parsed.place.city === filters.city ? parsed.place.matched : 'city',
          cities: [],
        }
      : parsed.place?.kind === 'province'
        ? { kind: 'province', name: parsed.place.province, matched: parsed.place.matched, cities: [] }
        : parsed.place?.kind === 'region'
          ? { kind: 'region', name: parsed.place.region, matched: parsed.place.matched, cities: parsed.place.cities }
          : null;
  return {
    language: parsed.lang,
    place,
    services: parsed.services,
    qualifiers: parsed.qualifiers,
    categorySlug,
    minTrustLevel: filters.minTrustLevel ?? null,
    minRating: filters.minRating ?? null,
    maxBudgetIdr: filters.projectBudget ?? null,
    read: [...parsed.constraintText, ...(parsed.budget ? [parsed.budget.text] : [])],
    searchText: parsed.ranked.text,
  };
}
