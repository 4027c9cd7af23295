/**
 * Same-process before/after of the keyword top-k on a shared machine: another
 * checkout's walk (`--old DIR`, e.g. a worktree of main) and this one's, on the
 * long-tail mix's keyword queries (bench/long-tail-queries.ts) with their filters,
 * k = the search's candidate window. Both run on this checkout's lists (one
 * postings store, warm), alternated query by query so the machine's load hits both
 * alike; each query's time is its fastest of `--rounds`. First checks that both
 * return the same rowids for every query (the whole window, not only a page).
 * Prints one JSON object: p50 / p95 / p99 and total ms of each side, overall and by kind.
 *
 *   node bench/keyword-pair.ts --db FILE --old ../main [--queries 5000] [--rounds 2]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { filterSet } from '../src/query/filter-set.ts';
import { buildFilter } from '../src/query/filters.ts';
import { Snapshot } from '../src/query/snapshot.ts';
import { groupCursor } from '../src/search/keyword-query-cursors.ts';
import { expandedKeywordQuery } from '../src/search/keyword-query.ts';
import { topKeywordMatches } from '../src/search/keyword-top-k.ts';
import { snapshotBridge } from '../src/search/language-expansion.ts';
import { snapshotPostings } from '../src/search/postings-store.ts';
import { CANDIDATE_WINDOW } from '../src/search/search.ts';
import { snapshotSynonyms } from '../src/search/synonyms.ts';
import { snapshotVocabulary } from '../src/search/vocabulary.ts';
import { servingSteps, stepsOnceServing } from '../src/search/warm.ts';
import { buildLongTailMix } from './long-tail-queries.ts';
import { requestWords } from '../src/query/nl-query.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, old: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string' } } });
if (!values.db || !values.old) throw new Error('--db FILE and --old DIR are required');
const oldRoot = pathToFileURL(`${resolve(values.old)}/`);
const old = {
  top: (await import(new URL('src/search/keyword-top-k.ts', oldRoot).href)).topKeywordMatches as typeof topKeywordMatches,
  cursor: (await import(new URL('src/search/keyword-query-cursors.ts', oldRoot).href)).groupCursor as typeof groupCursor,
};
const sides = [old, { top: topKeywordMatches, cursor: groupCursor }];

const snapshot = new Snapshot(values.db);
for (const step of [...servingSteps(snapshot), ...stepsOnceServing(snapshot)]) step.run();
const source = snapshotPostings(snapshot);
const queries = buildLongTailMix(values.db, Number(values.queries ?? 5000)).map((q) => {
  const filters = { ...(q.city ? { city: q.city } : {}), ...(q.categorySlug ? { categorySlug: q.categorySlug } : {}) };
  const query = expandedKeywordQuery(requestWords(q.q), snapshotVocabulary(snapshot), snapshotSynonyms(snapshot), snapshotBridge(snapshot));
  return { kind: q.kind, query, filter: filterSet(snapshot, buildFilter(snapshot, filters)) };
});
const run = (side: (typeof sides)[number], q: (typeof queries)[number]) =>
  q.query.groups.length === 0 ? [] : side.top(() => q.query.groups.map((g) => side.cursor(source, g)), { k: CANDIDATE_WINDOW, filter: q.filter, allTopicsFirst: q.query.allTopicsFirst });

const differing = queries.filter((q) => JSON.stringify(run(sides[0]!, q)) !== JSON.stringify(run(sides[1]!, q))).length;
const ms = sides.map(() => new Float64Array(queries.length).fill(Infinity));
for (let r = 0; r < Number(values.rounds ?? 2); r++)
  queries.forEach((q, i) => {
    for (const s of (i + r) % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      run(sides[s]!, q);
      ms[s]![i] = Math.min(ms[s]![i]!, performance.now() - started);
    }
  });

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), totalMs: Math.round(times.reduce((a, b) => a + b, 0)) };
};
const of = (s: number, kind?: string) => summary(queries.flatMap((q, i) => (kind === undefined || q.kind === kind ? [ms[s]![i]!] : [])));
const kinds = [...new Set(queries.map((q) => q.kind))];
const report = (s: number) => ({ all: of(s), ...Object.fromEntries(kinds.map((k) => [k, of(s, k)])) });
process.stdout.write(`${JSON.stringify({ queries: queries.length, differing, old: report(0), new: report(1) })}\n`);
snapshot.close();
