/**
 * The committed seed (data/seed/) is valid, consistent and varied enough for the
 * search evaluation: every record passes the dataset schemas, references resolve,
 * every case the API must handle is present, and no two descriptions are near copies.
 */
import { describe, expect, it } from 'vitest';
import { citySlug } from '../../src/text/city-slug.ts';
import {
  CategoryRecordSchema,
  ProofRecordSchema,
  ProviderRecordSchema,
  ReportRecordSchema,
  type CategoryRecord,
  type ProofRecord,
  type ProviderRecord,
} from '../../src/schemas/dataset.ts';
import { overlap, wordFourGrams } from './four-grams.ts';
import { readDataset, SEED_DIR } from './seed-data.ts';

const raw = readDataset(SEED_DIR);
const categories: CategoryRecord[] = raw.categories.map((c) => CategoryRecordSchema.parse(c));
const providers: ProviderRecord[] = raw.providers.map((p) => ProviderRecordSchema.parse(p));
const proofs: ProofRecord[] = raw.proofs.map((p) => ProofRecordSchema.parse(p));

describe('the seed dataset', () => {
  it('has about 500 providers, each passing the dataset schemas', () => {
    expect(providers.length).toBe(500);
    for (const [index, record] of raw.providers.entries()) {
      const result = ProviderRecordSchema.safeParse(record);
      expect(result.success, `providers.ndjson line ${index + 1}: ${result.error?.message}`).toBe(true);
    }
    for (const record of raw.proofs) expect(ProofRecordSchema.safeParse(record).success).toBe(true);
    for (const record of raw.reports) expect(ReportRecordSchema.safeParse(record).success).toBe(true);
  });

  it('has unique ids and slugs and resolvable references', () => {
    const ids = new Set(providers.map((p) => p.id));
    expect(ids.size).toBe(providers.length);
    expect(new Set(providers.map((p) => p.slug)).size).toBe(providers.length);
    expect(new Set(proofs.map((p) => p.id)).size).toBe(proofs.length);
    expect(new Set(categories.map((c) => c.id)).size).toBe(categories.length);
    expect(new Set(categories.map((c) => c.slug)).size).toBe(categories.length);
    const categoryIds = new Set(categories.map((c) => c.id));
    for (const c of categories) if (c.parentId !== null) expect(categoryIds.has(c.parentId)).toBe(true);
    for (const p of providers) {
      expect(p.categoryIds.length).toBeGreaterThanOrEqual(1);
      expect(p.categoryIds.length).toBeLessThanOrEqual(3);
      for (const id of p.categoryIds) expect(categoryIds.has(id), `${p.id} -> ${id}`).toBe(true);
    }
    for (const proof of proofs) expect(ids.has(proof.providerId), proof.id).toBe(true);
  });

  it('has at least 8 active top-level categories with active children, one inactive parent and one inactive child', () => {
    const active = categories.filter((c) => c.parentId === null && c.active);
    const withChildren = active.filter((top) => categories.some((c) => c.parentId === top.id && c.active));
    expect(withChildren.length).toBeGreaterThanOrEqual(8);
    expect(categories.some((c) => c.parentId === null && !c.active)).toBe(true);
    const activeParents = new Set(active.map((c) => c.id));
    expect(categories.some((c) => c.parentId !== null && activeParents.has(c.parentId) && !c.active)).toBe(true);
    expect(categories.map((c) => c.slug)).toEqual(expect.arrayContaining(['web-development', 'e-commerce', 'wordpress', 'seo']));
  });

  it('covers at least 20 cities in 10 provinces, spelling variants, missing cities and foreign countries', () => {
    const indonesian = providers.filter((p) => p.country === 'ID' && p.city !== null);
    expect(new Set(indonesian.map((p) => citySlug(p.city as string))).size).toBeGreaterThanOrEqual(20);
    expect(new Set(indonesian.map((p) => p.province)).size).toBeGreaterThanOrEqual(10);
    const denpasarSpellings = new Set(providers.filter((p) => p.city && citySlug(p.city) === 'denpasar').map((p) => p.city));
    expect(denpasarSpellings.size).toBeGreaterThanOrEqual(2);
    expect(providers.some((p) => p.city === null)).toBe(true);
    expect(new Set(providers.map((p) => p.country))).toEqual(new Set(['ID', 'SG', 'MY']));
  });

  it('has every submission status, about 85% approved, and approved providers without publishedAt', () => {
    const statuses = new Set(providers.map((p) => p.submissionStatus));
    expect(statuses).toEqual(new Set(['draft', 'pending', 'approved', 'rejected', 'suspended']));
    const approvedShare = providers.filter((p) => p.submissionStatus === 'approved').length / providers.length;
    expect(approvedShare).toBeGreaterThan(0.78);
    expect(approvedShare).toBeLessThan(0.92);
    expect(providers.some((p) => p.submissionStatus === 'approved' && p.publishedAt === null)).toBe(true);
    expect(providers.some((p) => p.submissionStatus !== 'approved' && p.publishedAt !== null)).toBe(true);
  });

  it('has IDR, USD, other and unknown currencies, and missing commercial values', () => {
    const money = providers.flatMap((p) => [p.minProjectBudget, p.hourlyRate]);
    const currencies = new Set(money.filter((m) => m !== null).map((m) => m.currency));
    for (const code of ['IDR', 'USD', null, 'SGD']) expect(currencies.has(code), String(code)).toBe(true);
    expect(money.some((m) => m === null)).toBe(true);
    expect(providers.some((p) => p.employeeCount === null)).toBe(true);
    const idrBudgets = providers.flatMap((p) => (p.minProjectBudget?.currency === 'IDR' ? [p.minProjectBudget.amount] : []));
    expect(Math.min(...idrBudgets)).toBeGreaterThanOrEqual(15_000_000);
    expect(Math.max(...idrBudgets)).toBeLessThanOrEqual(500_000_000);
  });

  it('has realistic ratings, reviews and trust', () => {
    const rated = providers.filter((p) => p.totalReviews > 0);
    const highShare = rated.filter((p) => p.overallRating >= 3.5).length / rated.length;
    expect(highShare).toBeGreaterThan(0.85);
    expect(rated.some((p) => p.overallRating < 3)).toBe(true);
    const reviews = providers.map((p) => p.totalReviews);
    expect(reviews.filter((n) => n <= 20).length / reviews.length).toBeGreaterThan(0.5);
    expect(Math.max(...reviews)).toBeGreaterThanOrEqual(100);
    expect(new Set(providers.map((p) => p.trustLevel))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    const midTrust = providers.filter((p) => p.trustLevel >= 1 && p.trustLevel <= 3).length / providers.length;
    expect(midTrust).toBeGreaterThan(0.5);
  });

  it('marks dashboard data so a leak is recognizable, and has both provenances', () => {
    expect(providers.filter((p) => p.moderationNotes !== null).every((p) => p.moderationNotes?.startsWith('MODNOTE: '))).toBe(true);
    expect(providers.filter((p) => p.internalStatus !== null).every((p) => p.internalStatus?.startsWith('INTERNAL: '))).toBe(true);
    expect(providers.some((p) => p.moderationNotes !== null && p.submissionStatus === 'approved' && p.publishedAt !== null)).toBe(true);
    const publicSource = providers.filter((p) => p.profileProvenance === 'public_source');
    expect(publicSource.length).toBeGreaterThan(0);
    for (const p of publicSource) {
      expect(p.sourceType).toBe('manual_public_enrichment');
      expect(p.sourcePrimaryUrl).toMatch(/^https:\/\//);
      expect(p.sourceAccessedAt).not.toBeNull();
    }
  });

  it('has proofs of every status and kind, public and not', () => {
    expect(new Set(proofs.map((p) => p.submissionStatus))).toEqual(new Set(['draft', 'pending', 'approved', 'rejected', 'suspended']));
    expect(new Set(proofs.map((p) => p.kind)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(proofs.map((p) => p.isPublic))).toEqual(new Set([true, false]));
  });

  it('has the web development report', () => {
    expect(raw.reports).toContainEqual(expect.objectContaining({ slug: 'web-development-indonesia-2026', categorySlug: 'web-development', country: 'ID', year: 2026 }));
  });

  it('has descriptions in Indonesian and English, no two sharing more than half of their word 4-grams', () => {
    const grams = providers.map((p) => wordFourGrams(p.description));
    let worst = { ratio: 0, a: '', b: '' };
    for (let i = 0; i < grams.length; i++) {
      for (let j = i + 1; j < grams.length; j++) {
        const ratio = overlap(grams[i] as Set<string>, grams[j] as Set<string>);
        if (ratio > worst.ratio) worst = { ratio, a: providers[i]?.id ?? '', b: providers[j]?.id ?? '' };
      }
    }
    expect(worst.ratio, `${worst.a} and ${worst.b}`).toBeLessThanOrEqual(0.5);
    expect(grams.every((g) => g.size >= 10)).toBe(true);
    expect(providers.some((p) => /\bkami\b/.test(p.description))).toBe(true);
    expect(providers.some((p) => /\bwe\b/i.test(p.description))).toBe(true);
  });

  it('has one ground-truth line per provider, naming synonyms that occur in its text', () => {
    expect(raw.truth.map((t) => t.id)).toEqual(providers.map((p) => p.id));
    for (const [index, truth] of raw.truth.entries()) {
      const provider = providers[index] as ProviderRecord;
      expect(truth.slug).toBe(provider.slug);
      expect(truth.primaryCategoryId).toBe(provider.categoryIds[0]);
      expect(truth.published).toBe(provider.submissionStatus === 'approved' && provider.publishedAt !== null);
      const keywords = truth.conceptKeywords as string[];
      expect(keywords.length).toBeGreaterThan(0);
      const text = `${provider.tagline} ${provider.description}`.toLowerCase();
      for (const keyword of keywords) expect(text, `${provider.id}: ${keyword}`).toContain(keyword.toLowerCase());
      if (provider.city !== null) expect(truth.citySlug).toBe(citySlug(provider.city));
    }
  });

  it('uses different synonyms for the same service across providers', () => {
    const ecommerce = raw.truth.filter((t) => t.primaryCategoryId === 'cat-e-commerce');
    const keywordSets = new Set(ecommerce.map((t) => (t.conceptKeywords as string[]).slice().sort().join('|')));
    expect(ecommerce.length).toBeGreaterThan(10);
    expect(keywordSets.size).toBeGreaterThan(ecommerce.length / 2);
  });
});
