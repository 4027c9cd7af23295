/**
 * Work search would otherwise do on the first requests after a snapshot opens,
 * done once before it serves (the snapshot holder calls this before installing a
 * snapshot; the benchmark calls it too and reports its time):
 *  - the in-memory vector index and the published providers' sort columns;
 *  - the vocabulary and synonym tables of the keyword side;
 *  - the filter sets of every city and every usable category, the filters
 *    people use most (2-5 ms each the first time).
 * 100,000 providers: about half a second.
 */
import { categoryTree, usableCategory } from '../query/categories.ts';
import { warmFilterClauses } from './filter-set.ts';
import { buildFilter } from '../query/filters.ts';
import { publishedColumns } from '../query/published-columns.ts';
import { snapshotSynonyms } from './synonyms.ts';
import { snapshotVocabulary } from './vocabulary.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { vectorIndex } from './vector-index.ts';

export interface WarmReport {
  ms: number;
  filterClauses: number;
}

const CITIES_SQL = 'SELECT DISTINCT p.city FROM published_providers p ORDER BY p.city';

export interface WarmStep {
  kind: 'index' | 'filter-clause';
  run(): void;
}

/**
 * The warm-up as small steps (each a few ms to tens of ms at 100,000 providers),
 * so a server swapping snapshots can yield to requests between them.
 */
export function warmSteps(snapshot: Snapshot): WarmStep[] {
  const steps: WarmStep[] = [];
  const index = (run: () => void) => steps.push({ kind: 'index', run });
  if (snapshot.meta.embedderDims > 0) index(() => vectorIndex(snapshot));
  index(() => publishedColumns(snapshot));
  index(() => snapshotVocabulary(snapshot));
  index(() => snapshotSynonyms(snapshot));
  const tree = categoryTree(snapshot);
  const cities = snapshot.prepare<[], string>(CITIES_SQL).pluck().all();
  const filters = [
    ...cities.map((city) => buildFilter(snapshot, { city })),
    ...[...tree.byId.values()].filter((n) => usableCategory(tree, n.slug)).map((n) => buildFilter(snapshot, { categorySlug: n.slug })),
  ];
  for (const clause of filters.flatMap((f) => f.clauses)) {
    steps.push({ kind: 'filter-clause', run: () => warmFilterClauses(snapshot, [clause]) });
  }
  return steps;
}

export function warmSearch(snapshot: Snapshot): WarmReport {
  const started = performance.now();
  const steps = warmSteps(snapshot);
  for (const step of steps) step.run();
  return {
    ms: performance.now() - started,
    filterClauses: steps.filter((s) => s.kind === 'filter-clause').length,
  };
}
