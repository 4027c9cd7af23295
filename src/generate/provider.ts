/**
 * One generated provider: its record, its proofs and its ground truth. Each provider
 * draws from its own PRNG stream (seed + index), so records do not depend on each
 * other except through the slug registry.
 */
import type { ProofRecord, ProviderRecord } from '../schemas/dataset.ts';
import { citySlug } from '../text/city-slug.ts';
import * as attr from './attributes.ts';
import { CONCEPT_BY_CATEGORY, type Concept } from './concepts.ts';
import { lifecycle, provenance } from './lifecycle.ts';
import { companyName } from './names.ts';
import { PLACE_WEIGHTS } from './places.ts';
import { proofsFor } from './proofs.ts';
import { hashSeed, Random } from './random.ts';
import type { SlugRegistry } from './slugs.ts';
import { activeChildrenOf, categoryById, RELATED_TOP_LEVEL, TOP_LEVEL_WEIGHT } from './taxonomy.ts';
import { writeProfile, type DescriptionLanguage } from './text/describe.ts';

/** What the search evaluation needs to know about how a provider was written (ground-truth.ndjson). */
export interface GroundTruth {
  id: string;
  slug: string;
  /** approved with a publishedAt: the only providers search can return */
  published: boolean;
  /** the leaf concept the description was written from */
  primaryCategoryId: string;
  categoryIds: string[];
  /** primary-service synonyms that occur in the tagline or description */
  conceptKeywords: string[];
  language: DescriptionLanguage;
  /** the canonical city (before spelling variants), or null */
  city: string | null;
  citySlug: string | null;
  province: string | null;
  country: string;
}

export interface GeneratedProvider {
  record: ProviderRecord;
  proofs: ProofRecord[];
  truth: GroundTruth;
}

const TOP_LEVEL_ENTRIES = Object.entries(TOP_LEVEL_WEIGHT).map(([id, w]) => [id, w] as const);
const INACTIVE_EXTRAS = ['cat-sms-blast', 'cat-nft-development', 'cat-blockchain-web3'];

export function providerId(index: number, total: number): string {
  return `prv-${String(index + 1).padStart(Math.max(6, String(total).length), '0')}`;
}

export function generateProvider(seed: number, index: number, total: number, slugs: SlugRegistry): GeneratedProvider {
  const rng = new Random(hashSeed('provider', seed, index));
  const id = providerId(index, total);
  const topLevel = rng.weighted(TOP_LEVEL_ENTRIES);
  const primaryId = rng.pick(activeChildrenOf(topLevel));
  const categoryIds = pickCategories(rng, topLevel, primaryId);
  const secondary = categoryIds.slice(1).map((c) => CONCEPT_BY_CATEGORY.get(c)).filter((c): c is Concept => !!c);
  const primary = CONCEPT_BY_CATEGORY.get(primaryId) as Concept;

  const place = rng.weighted(PLACE_WEIGHTS);
  const noCity = rng.chance(0.025);
  const spelling = place.variants?.find(([, share]) => rng.chance(share))?.[0] ?? place.city;
  const city = noCity ? null : spelling;
  const province = noCity && rng.chance(0.5) ? null : place.province;

  const name = companyName(rng);
  const slug = slugs.take(name);
  const website = rng.chance(0.9) ? `https://${slug.replace(/-/g, '')}${rng.pick(['.co.id', '.com', '.id', '.co.id', '.studio', '.tech'])}` : null;
  const origin = provenance(rng, slug, website);
  const commercialProvenance = origin.profileProvenance;
  const employees = attr.employeeCount(rng, commercialProvenance);
  const team = attr.teamSize(rng, employees);
  const sizeScale = Math.min(3, team / 60);

  const tags = [...new Set([...rng.sample(primary.tags, rng.int(2, 4)), ...secondary.flatMap((c) => rng.sample(c.tags, rng.int(0, 2)))])];
  const industryFocus = rng.sample(attr.INDUSTRIES, rng.weighted([[1, 3], [2, 4], [3, 3], [4, 1]] as const));
  const language: DescriptionLanguage =
    place.country === 'ID' ? rng.weighted([['id', 55], ['en', 33], ['id+en', 12]] as const) : rng.weighted([['en', 85], ['id+en', 15]] as const);
  const since = rng.int(2008, 2024);
  const written = writeProfile(rng, { name, city, country: place.country, primary, secondary, tags, industries: industryFocus, since, team }, language);

  const trust = attr.trustLevel(rng);
  const reviews = attr.totalReviews(rng);
  const state = lifecycle(rng);
  const record: ProviderRecord = {
    id,
    slug,
    companyName: name,
    tagline: written.tagline,
    description: written.description,
    website,
    city,
    province,
    country: place.country,
    categoryIds,
    trustLevel: trust,
    confidenceScore: attr.confidenceScore(rng, trust),
    overallRating: attr.overallRating(rng, reviews),
    totalReviews: reviews,
    capabilityTags: tags,
    industryFocus,
    languagesSupported: attr.languagesSupported(rng, place.country),
    employeeCount: employees,
    minProjectBudget: attr.money(rng, 'budget', place.country, commercialProvenance, sizeScale),
    hourlyRate: attr.money(rng, 'hourly', place.country, commercialProvenance, sizeScale),
    ...origin,
    ...state,
  };
  const truth: GroundTruth = {
    id,
    slug,
    published: state.submissionStatus === 'approved' && state.publishedAt !== null,
    primaryCategoryId: primaryId,
    categoryIds,
    conceptKeywords: written.conceptKeywords,
    language,
    city: noCity ? null : place.city,
    citySlug: noCity ? null : citySlug(place.city),
    province,
    country: place.country,
  };
  return { record, proofs: proofsFor(rng, id, index + 1, slug, primary, website), truth };
}

/** Primary leaf first; then maybe a sibling, a related service, the parent, or (rarely) an inactive one. */
function pickCategories(rng: Random, topLevel: string, primaryId: string): string[] {
  const ids = [primaryId];
  const extras = rng.weighted([[0, 35], [1, 45], [2, 20]] as const);
  for (let i = 0; i < extras; i++) {
    const kind = rng.weighted([['sibling', 35], ['related', 40], ['parent', 20], ['inactive', 3]] as const);
    if (kind === 'sibling') ids.push(rng.pick(activeChildrenOf(topLevel)));
    else if (kind === 'related') ids.push(rng.pick(activeChildrenOf(rng.pick(RELATED_TOP_LEVEL[topLevel] ?? [topLevel]))));
    else if (kind === 'parent') ids.push(categoryById(primaryId).parentId as string);
    else ids.push(rng.pick(INACTIVE_EXTRAS));
  }
  return [...new Set(ids)];
}
