/**
 * Worker: the long-tail mix (bench/long-tail-queries.ts) in process, one clean
 * process per snapshot size: `node bench/long-tail-search.ts --db FILE --queries N`.
 * Prints one JSON object (LongTailSearchResult) on stdout.
 *
 * Times every query three ways: the whole searchProviders (what the API calls),
 * the keyword side alone (query building + top-k) and the vector side alone
 * (query embedding + IVF scan), each with its filters. Time to first answer is
 * what a server does at start: open, the warm-up's serving steps, one query.
 * Then the vector side's recall@50 against an exact scan on 200 of the queries
 * (after the RSS is read: the exact scan loads every vector).
 */
import { parseArgs } from 'node:util';
import { buildFilter } from '../src/query/filters.ts';
import { embedQuery } from '../src/search/query-embedder.ts';
import { Snapshot } from '../src/query/snapshot.ts';
import { expandedKeywordQuery } from '../src/search/keyword-query.ts';
import { keywordCandidates } from '../src/search/keyword-side.ts';
import { snapshotBridge } from '../src/search/language-expansion.ts';
import { CANDIDATE_WINDOW, searchProviders, type SearchRequest } from '../src/search/search.ts';
import { snapshotSynonyms } from '../src/search/synonyms.ts';
import { vectorCandidates } from '../src/search/vector-side.ts';
import { snapshotVocabulary } from '../src/search/vocabulary.ts';
import { servingSteps, stepsOnceServing } from '../src/search/warm.ts';
import { buildLongTailMix, type LongTailQuery } from './long-tail-queries.ts';
import { stratifiedSubset } from './queries.ts';
import { measureVectorRecall, type RecallResult } from './vector-recall.ts';
import { selfRssMb } from './machine.ts';
import { summarize, summarizeBy, type LatencySummary } from './stats.ts';
import { requestWords } from '../src/query/nl-query.ts';

export interface LongTailSearchResult {
  queries: number;
  firstAnswerMs: number;
  /** the warm-up's steps after the first answer (synonym groups, filter sets, the common terms' lists) */
  backgroundWarmMs: number;
  search: LatencySummary;
  keyword: LatencySummary;
  vector: LatencySummary;
  byKind: Record<string, LatencySummary>;
  rssMb: number;
  /** the vector side's recall@50 against exact search, on 200 of the queries */
  vectorRecall: RecallResult;
}

const filtersOf = (q: LongTailQuery) => ({ ...(q.city ? { city: q.city } : {}), ...(q.categorySlug ? { categorySlug: q.categorySlug } : {}) });

const requestOf = (q: LongTailQuery): SearchRequest => ({ query: q.q, filters: filtersOf(q), sort: 'relevance', page: 1, limit: 20 });

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' } } });
  if (!values.db) throw new Error('--db FILE is required');
  const mix = buildLongTailMix(values.db, Number(values.queries ?? 5000));

  const t0 = performance.now();
  const snapshot = new Snapshot(values.db);
  for (const step of servingSteps(snapshot)) step.run();
  await searchProviders(snapshot, requestOf(mix[0]!));
  const firstAnswerMs = performance.now() - t0;
  const t1 = performance.now();
  for (const step of stepsOnceServing(snapshot)) step.run();
  const backgroundWarmMs = performance.now() - t1;

  // JIT and statement cache on another draw of the same kind, then every query once.
  for (const q of buildLongTailMix(values.db, 300, 17)) await searchProviders(snapshot, requestOf(q));
  const search: { label: string; ms: number }[] = [];
  const keyword: number[] = [];
  const vector: number[] = [];
  for (const q of mix) {
    let started = performance.now();
    await searchProviders(snapshot, requestOf(q));
    search.push({ label: q.kind + (q.city ? '+city' : q.categorySlug ? '+category' : ''), ms: performance.now() - started });

    started = performance.now();
    const filter = buildFilter(snapshot, filtersOf(q));
    keywordCandidates(snapshot, expandedKeywordQuery(requestWords(q.q), snapshotVocabulary(snapshot), snapshotSynonyms(snapshot), snapshotBridge(snapshot)), filter, CANDIDATE_WINDOW);
    keyword.push(performance.now() - started);

    started = performance.now();
    vectorCandidates(snapshot, (await embedQuery(snapshot, requestWords(q.q))).vector, buildFilter(snapshot, filtersOf(q)), CANDIDATE_WINDOW);
    vector.push(performance.now() - started);
  }
  const out: LongTailSearchResult = {
    queries: mix.length,
    firstAnswerMs,
    backgroundWarmMs,
    search: summarize(search.map((s) => s.ms)),
    keyword: summarize(keyword),
    vector: summarize(vector),
    byKind: summarizeBy(search),
    rssMb: selfRssMb().rssMb,
    vectorRecall: await measureVectorRecall(snapshot, stratifiedSubset(mix, 200), 50),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  snapshot.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
