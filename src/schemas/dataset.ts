/**
 * The dataset an editor hands to `db:build` (docs/interface.md, Dataset format). One schema per
 * record kind; the builder validates every record with these and reports file, line
 * and field on failure. Field names are fixed by the contract.
 */
import * as z from 'zod';

const isoDateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}/.test(s), {
  message: 'must be an ISO 8601 date-time',
});
const nonEmpty = z.string().trim().min(1, 'must not be empty');
const stringList = z.array(z.string().trim().min(1));

export const SlugSchema = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase [a-z0-9-] without leading, trailing or double hyphens');

export const CategoryRecordSchema = z.object({
  id: nonEmpty,
  slug: SlugSchema,
  name: nonEmpty,
  parentId: nonEmpty.nullable(),
  active: z.boolean(),
  description: z.string().optional(),
});
export type CategoryRecord = z.output<typeof CategoryRecordSchema>;

export const SubmissionStatusSchema = z.enum(['draft', 'pending', 'approved', 'rejected', 'suspended']);
export type SubmissionStatus = z.output<typeof SubmissionStatusSchema>;

export const ProfileProvenanceSchema = z.enum(['provider_submitted', 'public_source']);

export const EmployeeCountSchema = z.object({
  value: z.string().regex(/^\d+(?:-\d+|\+)?$/, 'must be a range such as 11-50, 201+ or a number'),
  provenance: nonEmpty,
});

export const MoneySchema = z.object({
  amount: z.number().nonnegative().finite(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as IDR')
    .nullable(),
  provenance: nonEmpty,
});
export type Money = z.output<typeof MoneySchema>;

export const ProviderRecordSchema = z.object({
  id: nonEmpty,
  slug: SlugSchema,
  companyName: nonEmpty,
  tagline: z.string(),
  description: z.string(),
  website: z.string().nullable(),
  city: z.string().trim().min(1).nullable(),
  province: z.string().trim().min(1).nullable(),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as ID'),
  categoryIds: z.array(nonEmpty),
  trustLevel: z.number().int().min(0).max(5),
  confidenceScore: z.number().min(0).max(1),
  overallRating: z.number().min(0).max(5),
  totalReviews: z.number().int().nonnegative(),
  capabilityTags: stringList,
  industryFocus: stringList,
  languagesSupported: stringList,
  employeeCount: EmployeeCountSchema.nullable(),
  minProjectBudget: MoneySchema.nullable(),
  hourlyRate: MoneySchema.nullable(),
  profileProvenance: ProfileProvenanceSchema,
  sourceType: z.string().nullable(),
  sourcePrimaryUrl: z.string().nullable(),
  sourceAccessedAt: isoDateTime.nullable(),
  submissionStatus: SubmissionStatusSchema,
  publishedAt: isoDateTime.nullable(),
  updatedAt: isoDateTime.nullable(),
  moderationNotes: z.string().nullable(),
  internalStatus: z.string().nullable(),
});
export type ProviderRecord = z.output<typeof ProviderRecordSchema>;

export const ProofRecordSchema = z.object({
  id: nonEmpty,
  providerId: nonEmpty,
  title: nonEmpty,
  kind: nonEmpty,
  url: z.string().nullable(),
  submissionStatus: SubmissionStatusSchema,
  isPublic: z.boolean(),
  createdAt: isoDateTime,
});
export type ProofRecord = z.output<typeof ProofRecordSchema>;

export const ReportRecordSchema = z.object({
  slug: SlugSchema,
  title: nonEmpty,
  categorySlug: SlugSchema,
  country: z.string().regex(/^[A-Z]{2}$/),
  year: z.number().int().min(2000).max(2100),
  summary: z.string(),
});
export type ReportRecord = z.output<typeof ReportRecordSchema>;

/** File names inside a dataset directory. */
export const DATASET_FILES = {
  categories: 'categories.json',
  providers: 'providers.ndjson',
  proofs: 'proofs.ndjson',
  reports: 'reports.json',
} as const;
