/**
 * Site-only reads for the pre-rendered provider pages and VIC cards. Built to
 * scale to 100,000 providers: getStaticPaths gets slugs only, and each page looks
 * its provider up through prepared statements (src/query/providers.ts), so no
 * full provider is ever held for the whole build.
 */
import type { ProviderDetail, ProviderSummary } from '../schemas/provider.ts';
import type { PublicProof } from '../web/vic.ts';
import { categoryTree, providerCategories, topLevelOf } from './categories.ts';
import { landingPath, programmaticParams, programmaticProviders, TRUST_THRESHOLD } from './discovery.ts';
import { displayableMinBudget, toProviderDetail } from './projections.ts';
import { publishedRowBySlug } from './providers.ts';
import type { ProviderRow } from './provider-row.ts';
import type { Snapshot } from './snapshot.ts';

const SLUGS_SQL = 'SELECT slug FROM published_providers ORDER BY slug';

/** Every published slug in slug order (strings only: ~30 bytes each at 100k). */
export function publishedSlugs(snapshot: Snapshot): string[] {
  return snapshot.prepare<[], { slug: string }>(SLUGS_SQL).pluck().all() as unknown as string[];
}

const PROOFS_SQL = `
  SELECT id, title, kind, url, created_at AS createdAt
  FROM public_proofs WHERE provider_rowid = ? ORDER BY created_at DESC, id`;

/** Proofs that count in public: approved and public (the public_proofs view). */
export function publicProofs(snapshot: Snapshot, rowid: number): PublicProof[] {
  return snapshot.prepare<[number], PublicProof>(PROOFS_SQL).all(rowid);
}

/** What a VIC card is built from (VIC files and the MCP tool get_provider_card). */
export function providerCardData(snapshot: Snapshot, slug: string): { detail: ProviderDetail; proofs: PublicProof[] } | undefined {
  const row = publishedRowBySlug(snapshot, slug);
  if (!row) return undefined;
  return { detail: toProviderDetail(row, providerCategories(snapshot, row.rowid)), proofs: publicProofs(snapshot, row.rowid) };
}

export interface LandingLink {
  path: string;
  categoryName: string;
  city: string;
}

export interface ProviderPageData {
  detail: ProviderDetail;
  /** The displayable minimum project budget in IDR, or null (never a hidden amount). */
  minProjectBudgetIdr: number | null;
  proofs: PublicProof[];
  /** Up to four providers from the same category and city, best first: what their cards show. */
  comparable: ComparableCard[];
  /** The landing pages this provider is listed on. */
  landings: LandingLink[];
}

/** How many comparable providers a provider page shows: the head of its primary landing list, less itself. */
const COMPARABLE_COUNT = 4;
/** The head of the landing list a page's comparable cards come from: one more, as a page leaves itself out. */
export const COMPARABLE_HEAD = COMPARABLE_COUNT + 1;

/**
 * What a comparable provider's card shows (src/components/ProviderProfile.astro): a small
 * publish renders a group's provider pages again only where these moved (src/ops/render-plan.ts).
 */
export const comparableCard = ({ slug, companyName, city, trustLevel, totalReviews, overallRating }: ProviderSummary) => ({ slug, companyName, city, trustLevel, totalReviews, overallRating });
export type ComparableCard = ReturnType<typeof comparableCard>;

/** A provider page's comparable cards: the head of its primary landing list (COMPARABLE_HEAD) without itself. */
export const comparableCards = (head: ProviderSummary[], slug: string): ComparableCard[] =>
  head.filter((p) => p.slug !== slug).slice(0, COMPARABLE_COUNT).map(comparableCard);

export function providerPageData(snapshot: Snapshot, slug: string): ProviderPageData | undefined {
  const row = publishedRowBySlug(snapshot, slug);
  if (!row) return undefined;
  const detail = toProviderDetail(row, providerCategories(snapshot, row.rowid));
  return {
    detail,
    minProjectBudgetIdr: displayableMinBudget(row),
    proofs: publicProofs(snapshot, row.rowid),
    comparable: comparableProviders(snapshot, row),
    landings: landingLinks(snapshot, row),
  };
}

/** Landing pages that list this provider: its top-level categories in its city. */
function landingLinks(snapshot: Snapshot, row: ProviderRow): LandingLink[] {
  if (row.trust_level < TRUST_THRESHOLD || !row.city_slug) return [];
  const byPath = landingIndex(snapshot);
  const tree = categoryTree(snapshot);
  const links = new Map<string, LandingLink>();
  for (const c of providerCategoryIds(snapshot, row.rowid)) {
    const top = topLevelOf(tree, c);
    if (!top) continue;
    const path = landingPath(top.slug, row.city_slug);
    const param = byPath.get(path);
    if (param && !links.has(path)) links.set(path, { path, categoryName: top.name, city: param.city });
  }
  return [...links.values()];
}

const landingIndex = (snapshot: Snapshot) =>
  snapshot.memo('site:landing-index', () => new Map(programmaticParams(snapshot).map((p) => [p.path, p])));

const CATEGORY_IDS_SQL = 'SELECT category_id FROM provider_categories WHERE provider_rowid = ? ORDER BY position';
const providerCategoryIds = (snapshot: Snapshot, rowid: number) =>
  snapshot.prepare<[number], { category_id: string }>(CATEGORY_IDS_SQL).pluck().all(rowid) as unknown as string[];

/**
 * Comparable providers: the top of this provider's primary landing list (same
 * top-level category, same city), else nothing. The top lists are memoized per
 * landing page, so 100k provider pages cost one ranking query per landing page.
 */
function comparableProviders(snapshot: Snapshot, row: ProviderRow): ComparableCard[] {
  if (!row.city_slug) return [];
  const tree = categoryTree(snapshot);
  const primary = providerCategoryIds(snapshot, row.rowid)
    .map((id) => topLevelOf(tree, id))
    .find((c) => c !== undefined);
  if (!primary) return [];
  const top = landingTop(snapshot, primary.slug, row.city_slug);
  return comparableCards(top, row.slug);
}

function landingTop(snapshot: Snapshot, categorySlug: string, slugOfCity: string): ProviderSummary[] {
  return snapshot.memo(`site:landing-top:${categorySlug}:${slugOfCity}`, () => {
    const node = categoryTree(snapshot).bySlug.get(categorySlug)!;
    return programmaticProviders(snapshot, node, { citySlug: slugOfCity }, { page: 1, limit: COMPARABLE_HEAD }).data;
  });
}
