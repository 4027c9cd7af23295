/**
 * The API test fixture: a generated dataset plus a few hand-crafted records for
 * precise cases, built into a snapshot by the real builder (STYLE.md habit 7), and
 * the real server started over it (scripts/serve.ts) for the over-HTTP tests.
 */
import { startServe } from '../support/serve.ts';
import { sharedBuild } from '../support/shared-build.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDataset } from '../../src/generate/index.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import type { ProofRecord, ProviderRecord } from '../../src/schemas/dataset.ts';

/** Large enough that one query's candidate windows (150 per side) hold under half of it. */
export const FIXTURE_PROVIDERS = 600;
export const FIXTURE_SEED = 11;

const base: Omit<ProviderRecord, 'id' | 'slug' | 'companyName'> = {
  tagline: 'Layanan digital',
  description: 'Kami membantu bisnis.',
  website: null,
  city: 'Jakarta Selatan',
  province: 'DKI Jakarta',
  country: 'ID',
  categoryIds: ['cat-e-commerce'],
  trustLevel: 3,
  confidenceScore: 0.5,
  overallRating: 4,
  totalReviews: 10,
  capabilityTags: ['Shopify'],
  industryFocus: ['Retail'],
  languagesSupported: ['Indonesian'],
  employeeCount: { value: '11-50', provenance: 'provider_submitted' },
  minProjectBudget: { amount: 20_000_000, currency: 'IDR', provenance: 'provider_submitted' },
  hourlyRate: { amount: 300_000, currency: 'IDR', provenance: 'provider_submitted' },
  profileProvenance: 'provider_submitted',
  sourceType: null,
  sourcePrimaryUrl: null,
  sourceAccessedAt: null,
  submissionStatus: 'approved',
  publishedAt: '2025-06-01T00:00:00.000Z',
  updatedAt: '2025-06-02T00:00:00.000Z',
  moderationNotes: null,
  internalStatus: null,
};

export const HOSTILE_NAME = `<script>alert("x")</script> "Quote'); DROP TABLE providers;-- NEAR( * ^`;

/** Hand-crafted records appended to the generated ones. */
export const HANDCRAFTED: ProviderRecord[] = [
  {
    ...base,
    id: 'fx-hostile',
    slug: 'hostile-name-co',
    companyName: HOSTILE_NAME,
    tagline: 'Toko online zyxwvut',
    description: 'Pembuatan toko online dengan kata unik zyxwvut.',
  },
  {
    ...base,
    id: 'fx-unpublished',
    slug: 'approved-not-published',
    companyName: 'Approved Not Published',
    tagline: 'Toko online secretunpublishedword',
    description: 'Toko online secretunpublishedword e-commerce website.',
    publishedAt: null,
    moderationNotes: 'SECRET-MODERATION-NOTE',
    internalStatus: 'SECRET-INTERNAL-STATUS',
  },
  {
    ...base,
    id: 'fx-dollar',
    slug: 'dollar-rate-studio',
    companyName: 'Dollar Rate Studio',
    tagline: 'Website WordPress',
    description: 'Pembuatan website WordPress untuk UMKM.',
    categoryIds: ['cat-wordpress'],
    hourlyRate: { amount: 99, currency: 'USD', provenance: 'provider_submitted' },
    minProjectBudget: { amount: 5000, currency: null, provenance: 'public_source' },
  },
  {
    ...base,
    id: 'fx-remote',
    slug: 'kedai-kopi-terpencil',
    companyName: 'Kedai Kopi Terpencil',
    tagline: 'Kopi tubruk dan roti bakar',
    description: 'Warung kopi keluarga yang menyajikan kopi tubruk, teh manis dan roti bakar sejak 1990.',
    city: 'Kota Terpencil',
    province: 'Nusa Tenggara Timur',
    categoryIds: ['cat-video-production'],
    industryFocus: ['Kuliner Langka'],
    capabilityTags: ['Kopi Tubruk'],
    trustLevel: 1,
    overallRating: 1.5,
  },
];

/** A public and a non-public proof of the dollar studio, for compare's proof count. */
const HANDCRAFTED_PROOFS: ProofRecord[] = [
  { id: 'fx-proof-1', providerId: 'fx-dollar', title: 'Case study', kind: 'case_study', url: null, submissionStatus: 'approved', isPublic: true, createdAt: '2025-06-01T00:00:00.000Z' },
  { id: 'fx-proof-2', providerId: 'fx-dollar', title: 'Private', kind: 'case_study', url: null, submissionStatus: 'approved', isPublic: false, createdAt: '2025-06-01T00:00:00.000Z' },
  { id: 'fx-proof-3', providerId: 'fx-dollar', title: 'Pending', kind: 'case_study', url: null, submissionStatus: 'pending', isPublic: true, createdAt: '2025-06-01T00:00:00.000Z' },
];

export interface Fixture {
  dir: string;
  dataDir: string;
  dbFile: string;
  providers: ProviderRecord[];
}

const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r) + '\n').join('');

/**
 * The fixture in a folder of the caller's own (removed by the caller): a copy of the
 * one dataset and snapshot every test file of the run shares (tests/support/shared-build.ts),
 * generated and built by the real generator and builder once per run.
 */
export async function buildFixture(): Promise<Fixture> {
  const shared = await sharedBuild('api-fixture', async (into) => {
    const data = path.join(into, 'data');
    await generateDataset({ providers: FIXTURE_PROVIDERS, seed: FIXTURE_SEED, outDir: data });
    fs.appendFileSync(path.join(data, 'providers.ndjson'), ndjson(HANDCRAFTED));
    fs.appendFileSync(path.join(data, 'proofs.ndjson'), ndjson(HANDCRAFTED_PROOFS));
    await buildSnapshot({ inputDir: data, outFile: path.join(into, 'directory.db') });
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pd-api-'));
  const dataDir = path.join(dir, 'data');
  const dbFile = path.join(dir, 'directory.db');
  fs.cpSync(path.join(shared, 'data'), dataDir, { recursive: true });
  fs.copyFileSync(path.join(shared, 'directory.db'), dbFile);
  const providers = fs
    .readFileSync(path.join(dataDir, 'providers.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ProviderRecord);
  return { dir, dataDir, dbFile, providers };
}

export const isPublished = (p: ProviderRecord) => p.submissionStatus === 'approved' && p.publishedAt !== null;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts scripts/serve.ts on a free port over the fixture snapshot; resolves with its URL. */
export async function startServer(dbFile: string): Promise<RunningServer> {
  const { url, stop } = await startServe({ DIRECTORY_DB: dbFile });
  return { url, stop };
}
