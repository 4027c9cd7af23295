/**
 * Hybrid search: the keyword side (bm25 over the query's topics, with typo
 * tolerance, service synonyms and the language bridge: keyword-query.ts, read from
 * search_postings by keyword-side.ts) and the vector side (the in-memory IVF
 * index: vector-side.ts), each filtered before ranking by the same filter,
 * merged by Reciprocal Rank Fusion.
 *
 *   rrfScore(item) = keywordWeight / (RRF_K + keywordRank)   (when the keyword side returned it)
 *                  + 1 / (RRF_K + vectorRank)                (when the vector side returned it)
 *                  + categoryShare / (RRF_K + 1)             (category-coherence.ts)
 *                  + namedService / (RRF_K + 1)              (named-service.ts: 1 when the provider's
 *                                                             primary category is a service the request names)
 *
 * the last two scaled by meta.rrf.termWeight (term-bound.ts: 1, or less when they would
 * lift a provider neither side ranks in its top 3 past the one both sides rank first).
 *
 * keywordWeight, in [MIN_KEYWORD_WEIGHT, 1], is the keyword list's confidence for
 * this query (confidence.ts), reported in meta.rrf.keywordWeight.
 * Ranks are 1-based; a side that did not return the item gives it rank
 * (that side's candidate count + 1), which adds nothing to rrfScore
 * (docs/interface.md). Order: rrfScore desc, trustLevel desc, slug asc (or the
 * requested sort key, then slug). `/api/v1/search`, the provider list with `q`, the
 * search page, the AI endpoint and the MCP tool all call `searchProviders`.
 *
 * The request is read once (src/query/nl-query.ts: parseRequest): the keyword
 * query, the embedder and the named-service term all take that one reading.
 */
import type { SearchSort } from '../schemas/api/params.ts';
import type { SearchInfo, SearchUnderstood } from '../schemas/api/responses.ts';
import type { ProviderSummary } from '../schemas/provider.ts';
import { buildFilter, type SearchFilters } from '../query/filters.ts';
import { toBusinessSummary } from '../query/projections.ts';
import type { SummaryRow } from '../query/provider-row.ts';
import { publishedSummaryRows } from '../query/providers.ts';
import { maxRowid, publishedColumns, type PublishedColumns } from '../query/published-columns.ts';
import { parseRequest, type ParseOptions, type ParsedRequest } from '../query/nl-query.ts';
import { snapshotQueryParser } from '../query/nl-query-vocabulary.ts';
import { embedQuery } from './query-embedder.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { addCategoryCoherence, primaryCategories } from './category-coherence.ts';
import { keywordWeight } from './confidence.ts';
import { addNamedService, favouredService, namedServices } from './named-service.ts';
import { expandedKeywordQuery, keywordQuery } from './keyword-query.ts';
import { firstInOrder } from './first-in-order.ts';
import { keywordCandidates } from './keyword-side.ts';
import { placeFirst, placeTest, type PlaceTier } from './place-tier.ts';
import { boundTerms } from './term-bound.ts';
import { snapshotBridge } from './language-expansion.ts';
import { snapshotSynonyms } from './synonyms.ts';
import { vectorCandidates } from './vector-side.ts';
import { snapshotVocabulary } from './vocabulary.ts';

export const RRF_K = 60;
/** Most candidates each side contributes to fusion. */
export const CANDIDATE_WINDOW = 150;

export interface SearchRequest {
  /**
   * The request: its text, read here (on the thread that searches), or the reading
   * a caller already made (AI recommend reads the request first for its filters).
   */
  query: string | ParsedRequest;
  filters: SearchFilters;
  sort: SearchSort;
  page: number;
  limit: number;
  /**
   * Which sides run; both unless evaluating one side alone (scripts/eval-search.ts).
   * `plainKeyword` turns the keyword side into the baseline: bm25 over the query's
   * own words, without typo tolerance, synonyms or topic tiers.
   */
  sides?: { keyword: boolean; vector: boolean; plainKeyword?: boolean };
}

export interface SearchHit {
  row: SummaryRow;
  summary: ProviderSummary;
  search: SearchInfo;
}

export interface SearchResult {
  items: SearchHit[];
  meta: {
    total: number;
    totalPages: number;
    terms: string[];
    rrf: { k: number; keywordWeight: number; termWeight: number; keywordCandidates: number; vectorCandidates: number; mergedCandidates: number; window: number };
    /** "unavailable" when the external embedder failed: this answer is the keyword side's alone */
    vectorSide: 'available' | 'unavailable';
    understood: SearchUnderstood;
  };
}

interface Fused {
  rowid: number;
  keywordRank: number;
  vectorRank: number;
  rrfScore: number;
  categoryShare: number;
  namedService: boolean;
  /** where the provider is against the place the request names (place-tier.ts); null when it names none */
  place: PlaceTier | null;
}

/**
 * The orders of a result, each ending with the slug's rank (a total order). The sort
 * columns are read by rowid when a comparison needs them, not copied into every
 * candidate: by relevance they break rare ties only, and each column is an array
 * the size of the snapshot (a cache miss per read).
 */
function comparator(sort: SearchSort, columns: PublishedColumns): (a: Fused, b: Fused) => number {
  const { slugRank, trust, rating, reviews } = columns;
  const bySlug = (a: Fused, b: Fused) => slugRank[a.rowid]! - slugRank[b.rowid]!;
  switch (sort) {
    case 'relevance':
      return (a, b) => b.rrfScore - a.rrfScore || trust[b.rowid]! - trust[a.rowid]! || bySlug(a, b);
    case 'rating':
      return (a, b) => rating[b.rowid]! - rating[a.rowid]! || bySlug(a, b);
    case 'trust':
      return (a, b) => trust[b.rowid]! - trust[a.rowid]! || bySlug(a, b);
    case 'reviews':
      return (a, b) => reviews[b.rowid]! - reviews[a.rowid]! || bySlug(a, b);
  }
}

/**
 * Reciprocal Rank Fusion of two ranked rowid lists, the keyword list's terms weighted
 * by keywordWeight: one candidate per published provider either list holds (anything
 * else is dropped here). A rowid's candidate is found through `slots` (the snapshot's
 * scratch, -1 everywhere between calls): a Map and an object per entry cost 80-100
 * us a query at 100k, a tenth of the search.
 */
function fuse(keyword: number[], vector: number[], keywordWeight: number, published: Uint8Array, slots: Int32Array): Fused[] {
  const fused: Fused[] = [];
  const entry = (rowid: number): Fused => {
    const at = slots[rowid]!;
    if (at >= 0) return fused[at]!;
    slots[rowid] = fused.length;
    const e: Fused = { rowid, keywordRank: keyword.length + 1, vectorRank: vector.length + 1, rrfScore: 0, categoryShare: 0, namedService: false, place: null };
    fused.push(e);
    return e;
  };
  for (let i = 0; i < keyword.length; i++) {
    const e = entry(keyword[i]!);
    e.keywordRank = i + 1;
    e.rrfScore += keywordWeight / (RRF_K + i + 1);
  }
  for (let i = 0; i < vector.length; i++) {
    const e = entry(vector[i]!);
    e.vectorRank = i + 1;
    e.rrfScore += 1 / (RRF_K + i + 1);
  }
  for (const e of fused) slots[e.rowid] = -1;
  // Only published providers are shown.
  return fused.filter((e) => published[e.rowid] === 1);
}

/** The request's one reading, as search reads it (AI recommend reads it its own way and hands it over). */
export function readRequest(snapshot: Snapshot, text: string, options: Omit<ParseOptions, 'favoured'> = {}): ParsedRequest {
  return parseRequest(text, snapshotQueryParser(snapshot), { ...options, favoured: favouredService(snapshot) });
}

/** The snapshot's fusion scratch: a slot per rowid, -1 when free. */
const fusionSlots = (snapshot: Snapshot) => snapshot.memo('fusion-slots', () => new Int32Array(maxRowid(snapshot) + 1).fill(-1));

export async function searchProviders(snapshot: Snapshot, req: SearchRequest): Promise<SearchResult> {
  const sides = req.sides ?? { keyword: true, vector: true };
  // The baseline reads the words as typed, the place's too, and ranks them by bm25 alone.
  const request = typeof req.query === 'string' ? readRequest(snapshot, req.query, sides.plainKeyword ? { leaveOut: 'nothing' } : {}) : req.query;
  const { ranked } = request;
  const filter = buildFilter(snapshot, req.filters);
  const kq = sides.plainKeyword ? keywordQuery(ranked) : expandedKeywordQuery(ranked, snapshotVocabulary(snapshot), snapshotSynonyms(snapshot), snapshotBridge(snapshot));
  const { vector, vectorSide } = sides.vector ? await embedQuery(snapshot, ranked) : { vector: null, vectorSide: 'available' as const };
  const keyword = sides.keyword ? keywordCandidates(snapshot, kq, filter, CANDIDATE_WINDOW) : [];
  const nearest = vectorCandidates(snapshot, vector, filter, CANDIDATE_WINDOW);

  const weight = keywordWeight(snapshot, kq, keyword);
  const columns = publishedColumns(snapshot);
  const fused = fuse(keyword, nearest, weight, columns.published, fusionSlots(snapshot));
  // A keyword-only answer keeps bm25's order and its all-topics tier (categoryShare 0, no named-service term).
  let termWeight = 1;
  if (nearest.length > 0 && keyword.length > 0) {
    const categories = primaryCategories(snapshot);
    addCategoryCoherence(fused, comparator('relevance', columns), categories, RRF_K, { keyword: keyword.length, vector: nearest.length });
    addNamedService(fused, categories, namedServices(snapshot, request.services), RRF_K);
    termWeight = boundTerms(fused, RRF_K);
  }

  // The place named is a tier of the relevance order (place-tier.ts); another sort keeps its own order.
  const placed = sides.plainKeyword ? null : placeTest(snapshot, request.place);
  if (placed) for (const f of fused) f.place = placed(f.rowid);
  const order = placed && req.sort === 'relevance' ? placeFirst(fused, comparator('relevance', columns)) : comparator(req.sort, columns);

  const start = (req.page - 1) * req.limit;
  const pageOf = firstInOrder(fused, start + req.limit, order).slice(start);
  const rows = publishedSummaryRows(snapshot, pageOf.map((f) => f.rowid));
  const items: SearchHit[] = pageOf.flatMap((f) => {
    const row = rows.get(f.rowid);
    if (!row) return [];
    return [
      {
        row,
        summary: toBusinessSummary(row),
        search: {
          source: 'hybrid' as const,
          rrfScore: f.rrfScore,
          keywordRank: f.keywordRank,
          vectorRank: f.vectorRank,
          categoryShare: f.categoryShare,
          namedService: f.namedService,
          place: f.place,
        },
      },
    ];
  });

  return {
    items,
    meta: {
      total: fused.length,
      totalPages: Math.ceil(fused.length / req.limit),
      terms: kq.terms,
      rrf: {
        k: RRF_K,
        keywordWeight: weight,
        termWeight,
        keywordCandidates: keyword.length,
        vectorCandidates: nearest.length,
        mergedCandidates: fused.length,
        window: CANDIDATE_WINDOW,
      },
      vectorSide,
      understood: understoodOf(request),
    },
  };
}

/** What search read from the request and used: the place (a tier), the services (the named-service term), the words ranked. */
function understoodOf(request: ParsedRequest): SearchUnderstood {
  const { place } = request;
  return {
    place:
      place === null
        ? null
        : place.kind === 'city'
          ? { kind: 'city', name: place.city, matched: place.matched, cities: [] }
          : place.kind === 'province'
            ? { kind: 'province', name: place.province, matched: place.matched, cities: [] }
            : { kind: 'region', name: place.region, matched: place.matched, cities: place.cities },
    services: request.services,
    searchText: request.ranked.text,
  };
}
