/**
 * The numeric and commercial facts of a generated provider, drawn from distributions
 * that look like a real directory: most ratings between 3.5 and 5, long-tailed review
 * counts, trust mostly 1-3, budgets in Rupiah for most and in other or unknown
 * currencies for some.
 */
import type { Money, ProviderRecord } from '../schemas/dataset.ts';
import type { Random } from './random.ts';

export const INDUSTRIES = [
  'Retail', 'F&B', 'Fintech', 'Healthcare', 'Education', 'Government', 'Manufacturing', 'Property', 'Tourism',
  'Logistics', 'Banking', 'Automotive', 'Hospitality', 'Energy', 'Media', 'Agriculture', 'Non-profit', 'Telecommunications',
] as const;

export function trustLevel(rng: Random): number {
  return rng.weighted([[0, 7], [1, 22], [2, 28], [3, 24], [4, 13], [5, 6]] as const);
}

/** Confidence follows trust loosely: a well-verified profile is usually a confident one. */
export function confidenceScore(rng: Random, trust: number): number {
  const raw = 0.25 + trust * 0.12 + rng.normal(0, 0.1);
  return Math.round(Math.min(1, Math.max(0, raw)) * 1000) / 1000;
}

/** Long tail: many providers with a handful of reviews, a few with hundreds. */
export function totalReviews(rng: Random): number {
  if (rng.chance(0.1)) return 0;
  if (rng.chance(0.04)) return rng.int(120, 640);
  return Math.min(119, Math.floor(Math.exp(rng.next() * Math.log(60))) + rng.int(0, 4));
}

/** An average of whole-star reviews, so a provider with 3 reviews has 4.33, not 4.41. */
export function overallRating(rng: Random, reviews: number): number {
  if (reviews === 0) return 0;
  const mean = rng.chance(0.05) ? 1.6 + rng.next() * 1.8 : Math.min(5, Math.max(3.2, rng.normal(4.45, 0.32)));
  const stars = Math.min(5, Math.max(1, Math.round(mean * reviews) / reviews));
  return Math.round(stars * 100) / 100;
}

const EMPLOYEE_RANGES = [['1-10', 30], ['11-50', 38], ['51-200', 18], ['201-500', 5], ['501+', 2], ['8', 2], ['25', 1]] as const;

export function employeeCount(rng: Random, provenance: string): ProviderRecord['employeeCount'] {
  if (rng.chance(0.14)) return null;
  return { value: rng.weighted(EMPLOYEE_RANGES), provenance };
}

/** A head count that agrees with the stated range, for the "our team of N" sentences. */
export function teamSize(rng: Random, employees: ProviderRecord['employeeCount']): number {
  const value = employees?.value ?? '11-50';
  const [low, high] = value.endsWith('+') ? [Number.parseInt(value, 10), Number.parseInt(value, 10) * 2] : value.split('-').map(Number);
  const min = low ?? 5;
  return rng.int(Math.max(2, min), Math.max(min, high ?? min));
}

type CurrencyKind = 'IDR' | 'USD' | 'SGD' | 'MYR' | null;

function currency(rng: Random, country: string): CurrencyKind {
  if (country === 'SG') return rng.weighted([['SGD', 6], ['USD', 3], [null, 1]] as const);
  if (country === 'MY') return rng.weighted([['MYR', 6], ['USD', 3], [null, 1]] as const);
  return rng.weighted([['IDR', 78], ['USD', 11], ['SGD', 2], [null, 9]] as const);
}

/** log-uniform between min and max, rounded to `step` */
function logUniform(rng: Random, min: number, max: number, step: number): number {
  const value = Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min)));
  return Math.max(step, Math.round(value / step) * step);
}

const BUDGET_RANGE: Record<Exclude<CurrencyKind, null> | 'unknown', readonly [number, number, number]> = {
  IDR: [15_000_000, 500_000_000, 5_000_000],
  USD: [1_000, 40_000, 500],
  SGD: [2_000, 50_000, 500],
  MYR: [5_000, 150_000, 1_000],
  unknown: [5_000, 100_000_000, 1_000],
};

const HOURLY_RANGE: Record<Exclude<CurrencyKind, null> | 'unknown', readonly [number, number, number]> = {
  IDR: [150_000, 1_500_000, 25_000],
  USD: [15, 120, 5],
  SGD: [40, 180, 5],
  MYR: [60, 400, 10],
  unknown: [20, 500_000, 5],
};

/** A money value scaled a little by size: bigger teams quote bigger minimums. */
export function money(rng: Random, kind: 'budget' | 'hourly', country: string, provenance: string, scale: number): Money | null {
  if (rng.chance(kind === 'budget' ? 0.18 : 0.3)) return null;
  const code = currency(rng, country);
  const [min, max, step] = (kind === 'budget' ? BUDGET_RANGE : HOURLY_RANGE)[code ?? 'unknown'];
  const low = min * (1 + scale);
  const amount = logUniform(rng, Math.min(low, max / 2), max, step);
  return { amount, currency: code, provenance };
}

export function languagesSupported(rng: Random, country: string): string[] {
  const languages = country === 'ID' ? ['Indonesian'] : ['English'];
  if (country === 'ID' ? rng.chance(0.72) : true) languages.push(country === 'ID' ? 'English' : 'Malay');
  if (rng.chance(0.06)) languages.push('Mandarin');
  if (rng.chance(0.03)) languages.push('Japanese');
  if (country !== 'ID' && rng.chance(0.5)) languages.push('Indonesian');
  return [...new Set(languages)];
}
