/**
 * A judged set written outside the project (a folder holding `dataset/` in the
 * dataset format and `queries.json`: {queries: [{id, class, q, grade2: [slug],
 * grade1: [slug]}]}): nDCG@10 per class of each search mode and of the AI
 * endpoint's ranking, in-process, through the same functions the API calls.
 * Grades are the set's own (2 = the provider's main service matches, 1 = related).
 * The AI endpoint's ranking comes in as a function (src/server sits above this folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MODES, SIDES, type Mode, type RankRequest } from './eval.ts';
import { searchProviders } from './search.ts';
import type { Snapshot } from '../query/snapshot.ts';

export interface ExternalQuery {
  id: string;
  class: string;
  q: string;
  grade2: string[];
  grade1: string[];
}

export type ExternalMode = Mode | 'recommend';
export const EXTERNAL_MODES: ExternalMode[] = [...MODES, 'recommend'];

export interface ExternalReport {
  queries: number;
  /** mode -> class ("all" included) -> mean nDCG@10 */
  ndcgAt10: Record<ExternalMode, Record<string, number>>;
  perQuery: ({ id: string; class: string; q: string } & Record<ExternalMode, number>)[];
  /** unpublished or unknown slugs returned */
  unknownReturned: number;
}

const K = 10;

export function loadExternalQueries(dir: string): ExternalQuery[] {
  return (JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { queries: ExternalQuery[] }).queries;
}

/** nDCG@10 with gain 2^g - 1 and the ideal from every judged slug. */
export function externalNdcg(query: ExternalQuery, slugs: readonly string[]): number {
  const grades = new Map<string, number>();
  for (const s of query.grade1) grades.set(s, 1);
  for (const s of query.grade2) grades.set(s, 2);
  const gain = (g: number) => 2 ** g - 1;
  const dcg = (gs: number[]) => gs.slice(0, K).reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);
  const ideal = dcg([...grades.values()].sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(slugs.slice(0, K).map((s) => grades.get(s) ?? 0)) / ideal;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;

export async function evaluateExternal(snapshot: Snapshot, queries: ExternalQuery[], recommendSlugs: RankRequest): Promise<ExternalReport> {
  const published = new Set(snapshot.prepare<[], string>('SELECT slug FROM published_providers').pluck().all());
  let unknownReturned = 0;
  const perQuery: ExternalReport['perQuery'] = [];
  for (const query of queries) {
    const scores = {} as Record<ExternalMode, number>;
    for (const mode of MODES) {
      const result = await searchProviders(snapshot, { query: query.q, filters: {}, sort: 'relevance', page: 1, limit: K, sides: SIDES[mode] });
      const slugs = result.items.map((hit) => hit.summary.slug);
      unknownReturned += slugs.filter((s) => !published.has(s)).length;
      scores[mode] = externalNdcg(query, slugs);
    }
    const slugs = await recommendSlugs(query.q);
    unknownReturned += slugs.filter((s) => !published.has(s)).length;
    scores.recommend = externalNdcg(query, slugs);
    perQuery.push({ id: query.id, class: query.class, q: query.q, ...scores });
  }
  const classes = [...new Set(queries.map((q) => q.class)), 'all'];
  const ndcgAt10 = Object.fromEntries(
    EXTERNAL_MODES.map((mode) => [
      mode,
      Object.fromEntries(
        classes.map((c) => [c, round(mean(perQuery.filter((p) => c === 'all' || p.class === c).map((p) => p[mode])))]),
      ),
    ]),
  ) as ExternalReport['ndcgAt10'];
  return { queries: queries.length, ndcgAt10, perQuery: perQuery.map((p) => ({ ...p, ...Object.fromEntries(EXTERNAL_MODES.map((m) => [m, round(p[m])])) })), unknownReturned };
}
