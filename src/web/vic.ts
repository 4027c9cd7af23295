/**
 * The provider intelligence card (VIC): a JSON-LD document per published provider,
 * served at /provider/{slug}/vic.json and by the MCP tool get_provider_card. Built
 * only from the one projection (toProviderDetail) and the public proofs, so it
 * carries exactly what the REST detail carries, typed for machines:
 * trust.confidenceScore is a number here (REST sends the 3-digit string),
 * trust.overallRating a number or null without reviews (REST sends "0.00"), and
 * `@context` is a string (docs/interface.md).
 */
import * as z from 'zod';
import { isRated, type ProviderDetail } from '../schemas/provider.ts';
import { absoluteUrl, providerPath, vicPath } from './urls.ts';
import { VIC_SCHEMA_VERSION, VIC_VERSION } from './vic-version.ts';

export { VIC_SCHEMA_VERSION, VIC_VERSION };

export const PublicProofSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.string(),
  url: z.string().nullable(),
  createdAt: z.string().describe('ISO 8601 timestamp'),
});
export type PublicProof = z.output<typeof PublicProofSchema>;

const MoneyFieldSchema = z.object({
  available: z.boolean(),
  displayable: z.boolean(),
  currency: z.enum(['IDR', 'NON_IDR', 'UNKNOWN']),
  provenance: z.string(),
});

export const VicCardSchema = z.object({
  '@context': z.literal('https://schema.org'),
  '@type': z.literal('ProfessionalService'),
  '@id': z.string().describe('absolute URL of this card'),
  url: z.string().describe('the provider page'),
  entity: z.object({
    slug: z.string(),
    name: z.string(),
    tagline: z.string(),
    description: z.string(),
    website: z.string().nullable(),
    location: z.object({ city: z.string().nullable(), province: z.string().nullable(), country: z.string() }),
    categories: z.array(z.object({ slug: z.string(), name: z.string() })),
    capabilityTags: z.array(z.string()),
    industryFocus: z.array(z.string()),
    languagesSupported: z.array(z.string()),
  }),
  trust: z.object({
    confidenceScore: z.number().describe('0-1'),
    trustLevel: z.number().int().describe('0-5'),
    overallRating: z.number().nullable().describe('0-5; null when the provider has no reviews, so no rating'),
    totalReviews: z.number().int(),
  }),
  commercial: z.object({
    employeeCount: z.object({ available: z.boolean(), displayable: z.boolean(), provenance: z.string() }),
    hourlyRate: MoneyFieldSchema.extend({ amountIdr: z.number().nullable().describe('only when displayable') }),
    minProjectBudget: MoneyFieldSchema,
  }),
  provenance: z.object({
    profileProvenance: z.enum(['provider_submitted', 'public_source']),
    sourceType: z.string().nullable(),
    sourcePrimaryUrl: z.string().nullable(),
    sourceAccessedAt: z.string().nullable(),
  }),
  proofs: z.array(PublicProofSchema.omit({ id: true })),
  dates: z.object({ publishedAt: z.string(), updatedAt: z.string().nullable() }),
  links: z.object({ page: z.string(), api: z.string() }),
  meta: z.object({ vicVersion: z.number().int(), schemaVersion: z.string() }),
});
export type VicCard = z.output<typeof VicCardSchema>;

export interface VicOptions {
  /** `{web_url}` (PUBLIC_WEB_URL), without a trailing slash. */
  webUrl: string;
  /** `{base_url}` (PUBLIC_API_URL); defaults to webUrl. */
  apiUrl?: string;
}

/** Pure: the same detail and proofs always give the same card (builds are byte-identical). */
export function buildVicCard(detail: ProviderDetail, publicProofs: PublicProof[], options: VicOptions): VicCard {
  const { webUrl } = options;
  const apiUrl = options.apiUrl ?? webUrl;
  const signals = detail.publicDataMeta.commercialSignals;
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': absoluteUrl(webUrl, vicPath(detail.slug)),
    url: absoluteUrl(webUrl, providerPath(detail.slug)),
    entity: {
      slug: detail.slug,
      name: detail.companyName,
      tagline: detail.tagline,
      description: detail.description,
      website: detail.website,
      location: { city: detail.city, province: detail.province, country: detail.country },
      categories: detail.categories.map((c) => ({ slug: c.slug, name: c.name })),
      capabilityTags: detail.capabilityTags,
      industryFocus: detail.industryFocus,
      languagesSupported: detail.languagesSupported,
    },
    trust: {
      confidenceScore: Number(detail.confidenceScore),
      trustLevel: detail.trustLevel,
      overallRating: isRated(detail.totalReviews) ? Number(detail.overallRating) : null,
      totalReviews: detail.totalReviews,
    },
    commercial: {
      employeeCount: { ...signals.employeeCount },
      // avgHourlyRate is already null unless displayable (the projection's rule).
      hourlyRate: { ...signals.hourlyRate, amountIdr: detail.avgHourlyRate },
      minProjectBudget: { ...signals.minProjectBudget },
    },
    provenance: {
      profileProvenance: detail.publicDataMeta.profileProvenance,
      sourceType: detail.publicDataMeta.sourceType,
      sourcePrimaryUrl: detail.publicDataMeta.sourcePrimaryUrl,
      sourceAccessedAt: detail.publicDataMeta.sourceAccessedAt,
    },
    proofs: publicProofs.map(({ title, kind, url, createdAt }) => ({ title, kind, url, createdAt })),
    dates: { publishedAt: detail.publishedAt, updatedAt: detail.updatedAt },
    links: { page: absoluteUrl(webUrl, providerPath(detail.slug)), api: absoluteUrl(apiUrl, `/api/v1/providers/${detail.slug}`) },
    meta: { vicVersion: VIC_VERSION, schemaVersion: VIC_SCHEMA_VERSION },
  };
}

/** The card as served: pretty enough to read, a final newline, same bytes for same data. */
export const serializeVicCard = (card: VicCard): string => `${JSON.stringify(card, null, 2)}\n`;
