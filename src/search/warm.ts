/**
 * Work search would otherwise do on the first requests after a snapshot opens:
 *  - before it serves (servingSteps): the in-memory vector index, the published
 *    providers' sort columns and primary categories, the request parser (src/query/nl-query.ts), the places
 *    of the place tier (place-tier.ts), the vocabulary
 *    and synonym tables of the keyword side (1,000,000 providers: a few seconds, mostly reading the vectors);
 *  - then (backgroundSteps): every service synonym group's list of scores
 *    (postings-store.ts; tens of ms each at a million providers) and the filter
 *    sets of every city and usable category (2-5 ms each at 100,000). A request
 *    that needs one of these before it is ready computes it, as it would anyway;
 *  - once it serves (listSteps): the common terms' posting lists, largest first
 *    (postings-store.ts preloadTerms), a list a step.
 * The snapshot holder runs the serving steps before a first snapshot answers and
 * the rest right after, in steps between requests; a hot swap runs the serving and
 * background steps in steps before it switches, and the lists after it, once the
 * old snapshot's lists can go. The benchmark runs all of them at once (warmSearch).
 */
import { categoryTree, usableCategory } from '../query/categories.ts';
import { alternative, type KeywordAlternative } from './keyword-query.ts';
import { preloadTerms, snapshotGroupList, termPostings } from './postings-store.ts';
import { warmFilterClauses } from '../query/filter-set.ts';
import { buildFilter } from '../query/filters.ts';
import { publishedColumns } from '../query/published-columns.ts';
import { snapshotQueryParser } from '../query/nl-query-vocabulary.ts';
import { primaryCategories } from './category-coherence.ts';
import { placeIndex } from './place-tier.ts';
import { snapshotSynonyms } from './synonyms.ts';
import { snapshotVocabulary } from './vocabulary.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { vectorIndex } from './vector-index.ts';

export interface WarmReport {
  ms: number;
  /** of which before serving */
  servingMs: number;
  synonymGroups: number;
  filterClauses: number;
  termLists: number;
}

const CITIES_SQL = 'SELECT DISTINCT p.city FROM published_providers p ORDER BY p.city';

export interface WarmStep {
  kind: 'index' | 'synonym-group' | 'filter-clause' | 'term-list';
  run(): void;
}

/** What a snapshot needs before its first answer. */
export function servingSteps(snapshot: Snapshot): WarmStep[] {
  const steps: WarmStep[] = [];
  const index = (run: () => void) => steps.push({ kind: 'index', run });
  if (snapshot.meta.embedderDims > 0) index(() => vectorIndex(snapshot));
  index(() => publishedColumns(snapshot));
  index(() => primaryCategories(snapshot));
  index(() => snapshotQueryParser(snapshot));
  index(() => placeIndex(snapshot));
  index(() => snapshotVocabulary(snapshot));
  index(() => snapshotSynonyms(snapshot));
  return steps;
}

/** The rest, as small steps (a few ms to tens of ms each) a server can interleave with requests. */
export function* backgroundSteps(snapshot: Snapshot): Generator<WarmStep> {
  for (const phrases of snapshotSynonyms(snapshot).groups()) {
    const alternatives = phrases.map((p) => alternative(p)).filter((a): a is KeywordAlternative => a !== null);
    yield { kind: 'synonym-group', run: () => snapshotGroupList(snapshot, { alternatives }) };
  }
  const tree = categoryTree(snapshot);
  const cities = snapshot.prepare<[], string>(CITIES_SQL).pluck().all();
  const filters = [
    ...cities.map((city) => buildFilter(snapshot, { city })),
    ...[...tree.byId.values()].filter((n) => usableCategory(tree, n.slug)).map((n) => buildFilter(snapshot, { categorySlug: n.slug })),
  ];
  for (const clause of filters.flatMap((f) => f.clauses)) {
    yield { kind: 'filter-clause', run: () => warmFilterClauses(snapshot, [clause]) };
  }
}

/** Once the snapshot serves: its common terms' lists, a list a step. */
export function* listSteps(snapshot: Snapshot): Generator<WarmStep> {
  for (const term of preloadTerms(snapshot)) yield { kind: 'term-list', run: () => termPostings(snapshot, term) };
}

/** What a first snapshot does between requests once it serves. */
export function* stepsOnceServing(snapshot: Snapshot): Generator<WarmStep> {
  yield* backgroundSteps(snapshot);
  yield* listSteps(snapshot);
}

/** What a snapshot needs before a hot swap switches to it: serving steps first. */
export function* warmSteps(snapshot: Snapshot): Generator<WarmStep> {
  yield* servingSteps(snapshot);
  yield* backgroundSteps(snapshot);
}

export function warmSearch(snapshot: Snapshot): WarmReport {
  const started = performance.now();
  for (const step of servingSteps(snapshot)) step.run();
  const servingMs = performance.now() - started;
  const counts = { 'synonym-group': 0, 'filter-clause': 0, 'term-list': 0, index: 0 };
  for (const step of stepsOnceServing(snapshot)) {
    step.run();
    counts[step.kind]++;
  }
  return {
    ms: performance.now() - started,
    servingMs,
    synonymGroups: counts['synonym-group'],
    filterClauses: counts['filter-clause'],
    termLists: counts['term-list'],
  };
}
