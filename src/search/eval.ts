/**
 * Search quality on the judged query set (data/eval/queries.json): nDCG@10 of
 * keyword-only, vector-only and hybrid ranking, through the same searchProviders
 * the API calls. Grades come from the generator's ground truth
 * (data/seed/ground-truth.ndjson), never from keyword overlap.
 */
import fs from 'node:fs';
import { searchProviders, type SearchRequest } from './search.ts';
import type { Snapshot } from '../query/snapshot.ts';

export interface JudgedQuery {
  id: string;
  class: string;
  q: string;
  categoryId: string;
  citySlug?: string;
  split: 'dev' | 'heldout';
}

export interface GroundTruthRecord {
  slug: string;
  published: boolean;
  primaryCategoryId: string;
  categoryIds: string[];
  citySlug?: string | null;
}

/**
 * keyword: the baseline, plain bm25 over the query's own words (the issue's
 * "keyword-only BM25"); keywordExpanded: the keyword side as hybrid runs it (typo
 * tolerance, service synonyms, topic tiers); vector: the vector side alone;
 * hybrid: both sides fused by RRF, as the API answers.
 */
export type Mode = 'keyword' | 'keywordExpanded' | 'vector' | 'hybrid';
/** A ranking of slugs for a request, best first (the AI endpoint's, passed in by scripts/eval-search.ts). */
export type RankRequest = (q: string) => Promise<string[]>;
export const MODES: Mode[] = ['keyword', 'keywordExpanded', 'vector', 'hybrid'];

export const SIDES: Record<Mode, NonNullable<SearchRequest['sides']>> = {
  keyword: { keyword: true, vector: false, plainKeyword: true },
  keywordExpanded: { keyword: true, vector: false },
  vector: { keyword: false, vector: true },
  hybrid: { keyword: true, vector: true },
};
const CUTOFF = 10;

export function loadJudgedQueries(file: string): JudgedQuery[] {
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { queries: JudgedQuery[] }).queries;
}

export function loadGroundTruth(file: string): GroundTruthRecord[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GroundTruthRecord);
}

/** 2 = primary category (and city when asked), 1 = another of its categories, 0 otherwise. */
export function grade(query: JudgedQuery, record: GroundTruthRecord): number {
  if (!record.published) return 0;
  if (query.citySlug && record.citySlug !== query.citySlug) return 0;
  if (record.primaryCategoryId === query.categoryId) return 2;
  return record.categoryIds.includes(query.categoryId) ? 1 : 0;
}

const gain = (g: number) => 2 ** g - 1;
const dcg = (grades: number[]) => grades.slice(0, CUTOFF).reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);

export function ndcgAt10(returnedGrades: number[], allGrades: number[]): number {
  const ideal = dcg([...allGrades].sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(returnedGrades) / ideal;
}

export interface EvalReport {
  queries: number;
  ndcgAt10: Record<Mode, { all: number; dev: number; heldout: number; byClass: Record<string, number> }>;
  /** the AI endpoint's ranking of the same requests, when evaluated */
  recommend?: { all: number; byClass: Record<string, number> };
  unpublishedReturned: number;
  perQuery: ({ id: string; class: string; split: string; q: string } & Record<Mode, number>)[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;

export async function evaluateSearch(
  snapshot: Snapshot,
  queries: JudgedQuery[],
  truth: GroundTruthRecord[],
  recommendSlugs?: RankRequest,
): Promise<EvalReport> {
  const bySlug = new Map(truth.map((t) => [t.slug, t]));
  let unpublishedReturned = 0;
  const perQuery: EvalReport['perQuery'] = [];
  const recommended: { class: string; ndcg: number }[] = [];
  for (const query of queries) {
    const allGrades = truth.map((t) => grade(query, t));
    if (recommendSlugs) {
      const grades = (await recommendSlugs(query.q)).slice(0, CUTOFF).map((slug) => {
        const record = bySlug.get(slug);
        if (!record?.published) unpublishedReturned++;
        return record ? grade(query, record) : 0;
      });
      recommended.push({ class: query.class, ndcg: ndcgAt10(grades, allGrades) });
    }
    const scores = {} as Record<Mode, number>;
    for (const mode of MODES) {
      const result = await searchProviders(snapshot, { query: query.q, filters: {}, sort: 'relevance', page: 1, limit: CUTOFF, sides: SIDES[mode] });
      const grades = result.items.map((hit) => {
        const record = bySlug.get(hit.summary.slug);
        if (!record?.published) unpublishedReturned++;
        return record ? grade(query, record) : 0;
      });
      scores[mode] = ndcgAt10(grades, allGrades);
    }
    perQuery.push({ id: query.id, class: query.class, split: query.split, q: query.q, ...scores });
  }
  const summarize = (mode: Mode) => {
    const classes = [...new Set(perQuery.map((p) => p.class))];
    return {
      all: round(mean(perQuery.map((p) => p[mode]))),
      dev: round(mean(perQuery.filter((p) => p.split === 'dev').map((p) => p[mode]))),
      heldout: round(mean(perQuery.filter((p) => p.split === 'heldout').map((p) => p[mode]))),
      byClass: Object.fromEntries(classes.map((c) => [c, round(mean(perQuery.filter((p) => p.class === c).map((p) => p[mode])))])),
    };
  };
  const classes = [...new Set(recommended.map((r) => r.class))];
  return {
    queries: queries.length,
    ndcgAt10: Object.fromEntries(MODES.map((m) => [m, summarize(m)])) as EvalReport['ndcgAt10'],
    ...(recommendSlugs && {
      recommend: {
        all: round(mean(recommended.map((r) => r.ndcg))),
        byClass: Object.fromEntries(classes.map((c) => [c, round(mean(recommended.filter((r) => r.class === c).map((r) => r.ndcg)))])),
      },
    }),
    unpublishedReturned,
    perQuery: perQuery.map((p) => ({ ...p, ...Object.fromEntries(MODES.map((m) => [m, round(p[m])])) })),
  };
}
