/**
 * Query parameters of the public REST API, parsed once at the edge with zod.
 *
 * Public endpoints normalize (docs/interface.md): an unparseable number is
 * ignored, an oversized `limit` is cut to its cap, an unknown `sort` falls back, an
 * empty string counts as absent. Each schema's output side (the normalized value)
 * is what the OpenAPI document describes, so the docs say what the handler sees.
 * Only the spec's codes are raised, and not here: the handlers check the required
 * parameters (QUERY_REQUIRED, PARAM_REQUIRED) because their messages name them.
 */
import * as z from 'zod';

export const MAX_QUERY_CODE_POINTS = 200;
export const MIN_QUERY_CODE_POINTS = 2;
/** Pages past this are answered as this page: keeps SQL offsets in range. */
const MAX_PAGE = 1_000_000_000;

const firstValue = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** A trimmed string, or undefined when absent or blank. */
export const optionalText = (description: string) =>
  z.preprocess((raw) => {
    const v = firstValue(raw);
    if (typeof v !== 'string') return undefined;
    const t = v.trim();
    return t === '' ? undefined : t;
  }, z.string().optional().describe(description));

function toNumber(raw: unknown): number | undefined {
  const v = firstValue(raw);
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const t = typeof v === 'string' ? v.trim() : v;
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** A number >= 0, or undefined when absent, unparseable or negative. */
export const optionalAmount = (description: string) =>
  z.preprocess((raw) => {
    const n = toNumber(raw);
    return n === undefined || n < 0 ? undefined : n;
  }, z.number().min(0).optional().describe(description));

/** An integer clamped into [min, max], or undefined when absent or unparseable. */
export const optionalIntInRange = (min: number, max: number, description: string) =>
  z.preprocess((raw) => {
    const n = toNumber(raw);
    return n === undefined ? undefined : Math.min(max, Math.max(min, Math.trunc(n)));
  }, z.number().int().min(min).max(max).optional().describe(description));

/** `page`: default 1; anything below 1 or unparseable is page 1. */
export const pageParam = z.preprocess((raw) => {
  const n = toNumber(raw);
  return n === undefined || n < 1 ? undefined : Math.min(MAX_PAGE, Math.trunc(n));
}, z.number().int().min(1).max(MAX_PAGE).default(1).describe('1-based page number; a page past the end gives empty data'));

/** `limit`: oversized values are cut to the cap; below 1 or unparseable gives the default. */
export const limitParam = (defaultLimit: number, cap: number) =>
  z.preprocess((raw) => {
    const n = toNumber(raw);
    return n === undefined || n < 1 ? undefined : Math.min(cap, Math.trunc(n));
  }, z.number().int().min(1).max(cap).default(defaultLimit).describe(`page size, default ${defaultLimit}, values above ${cap} are cut to ${cap}`));

/** An enum value, or the fallback when absent or unknown (case-insensitive). */
export const enumWithFallback = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number], description: string) =>
  z.preprocess((raw) => {
    const v = firstValue(raw);
    const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
    return (values as readonly string[]).includes(t) ? t : fallback;
  }, z.enum(values).default(fallback).describe(description));

/** An optional enum value; unknown values are ignored. */
export const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T, description: string) =>
  z.preprocess((raw) => {
    const v = firstValue(raw);
    const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
    return (values as readonly string[]).includes(t) ? t : undefined;
  }, z.enum(values).optional().describe(description));

export const BUSINESS_SIZES = ['micro', 'small', 'medium', 'large'] as const;

/** The directory filters shared by /providers and /search (one filter builder reads them). */
export const FilterParamsSchema = z.object({
  categorySlug: optionalText('category slug; a top-level category includes its active children'),
  industry: optionalText('industry focus value, case-insensitive'),
  projectBudget: optionalAmount('IDR; providers whose displayable minimum project budget is at most this amount'),
  businessSize: optionalEnum(BUSINESS_SIZES, 'micro (1-10 staff), small (11-50), medium (51-200), large (201+)'),
  capabilityTag: optionalText('capability tag, case-insensitive'),
  hourlyRateMin: optionalAmount('IDR per hour; displayable hourly rate at least this'),
  hourlyRateMax: optionalAmount('IDR per hour; displayable hourly rate at most this'),
  minRating: optionalAmount('minimum overall rating, 0-5'),
  city: optionalText('exact city, case-insensitive'),
  location: optionalText('city, province or country (whole value, case-insensitive)'),
  country: optionalText('ISO 3166-1 alpha-2 country code, case-insensitive'),
  minTrustLevel: optionalIntInRange(0, 5, 'minimum trust level, 0-5'),
});
export type FilterParams = z.output<typeof FilterParamsSchema>;

export const LIST_SORTS = ['rating', 'trust', 'reviews'] as const;
export const SEARCH_SORTS = ['relevance', 'rating', 'trust', 'reviews'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** `q` of search and list: trimmed and cut to 200 code points; empty is absent. */
export const queryText = z.preprocess((raw) => {
  const v = firstValue(raw);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t === '') return undefined;
  return [...t].slice(0, MAX_QUERY_CODE_POINTS).join('').trim();
}, z.string().optional().describe('free text, 2-200 code points; longer text is cut to 200'));

export const ProvidersListParamsSchema = FilterParamsSchema.extend({
  page: pageParam,
  limit: limitParam(20, 50),
  q: queryText.describe('optional; when it has at least 2 code points the list uses hybrid ranking'),
  sort: z.preprocess((raw) => {
    const v = firstValue(raw);
    const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
    return (SEARCH_SORTS as readonly string[]).includes(t) ? t : undefined;
  }, z.enum(SEARCH_SORTS).optional().describe('rating (default), trust or reviews; any other value falls back to rating. With q: relevance (default) or one of those')),
});
export type ProvidersListParams = z.output<typeof ProvidersListParamsSchema>;

export const SearchParamsSchema = FilterParamsSchema.extend({
  q: queryText.describe('required, 2-200 code points (after trimming); longer text is cut to 200'),
  page: pageParam,
  limit: limitParam(20, 50),
  sort: enumWithFallback(SEARCH_SORTS, 'relevance', 'relevance (default), rating, trust or reviews; anything else is relevance'),
});
export type SearchParams = z.output<typeof SearchParamsSchema>;

export const ProgrammaticParamsParamsSchema = z.object({
  limit: limitParam(500, 1000),
});

export const ProgrammaticQuerySchema = z.object({
  categorySlug: optionalText('required: category slug (a top-level category includes its active children)'),
  citySlug: optionalText('required: city slug, e.g. jakarta-selatan'),
  city: optionalText('optional: when sent, the city is matched directly (case-insensitive)'),
  page: pageParam,
  limit: limitParam(20, 50),
});
export type ProgrammaticQuery = z.output<typeof ProgrammaticQuerySchema>;

export const CompareQuerySchema = z.object({
  slugA: optionalText('required: first provider slug'),
  slugB: optionalText('required: second provider slug'),
});

/** Reads a URLSearchParams into a plain record (first value of each name). */
export function queryRecord(params: URLSearchParams): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of params) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** Number of Unicode code points of a string. */
export const codePointLength = (s: string) => [...s].length;
