/**
 * Work search would otherwise do on the first requests after a snapshot opens,
 * done once before it serves (the snapshot holder calls this before installing a
 * snapshot; the benchmark calls it too and reports its time):
 *  - the in-memory vector index and the published providers' sort columns;
 *  - the vocabulary and synonym tables of the keyword side;
 *  - every service synonym group's posting list (each is a dozen alternatives in
 *    two languages, several of them common words: 5-60 ms each to evaluate);
 *  - the filter sets of every city and every usable category, the filters
 *    people use most (2-5 ms each the first time).
 * 100,000 providers: about half a second.
 */
import { normalizeTokens } from '../snapshot/embedder-text.ts';
import { categoryTree, usableCategory } from './categories.ts';
import { warmFilterClauses } from './filter-set.ts';
import { buildFilter } from './filters.ts';
import { groupPostings } from './postings-store.ts';
import { publishedColumns } from './published-columns.ts';
import { hasSearchPostings } from './search-postings.ts';
import { snapshotSynonyms } from './search-synonyms.ts';
import { snapshotVocabulary } from './search-vocabulary.ts';
import type { Snapshot } from './snapshot.ts';
import { vectorIndex } from './vector-index.ts';

export interface WarmReport {
  ms: number;
  synonymGroups: number;
  filterClauses: number;
}

const CITIES_SQL = 'SELECT DISTINCT p.city FROM published_providers p ORDER BY p.city';

export function warmSearch(snapshot: Snapshot): WarmReport {
  const started = performance.now();
  if (snapshot.meta.embedderDims > 0) vectorIndex(snapshot);
  publishedColumns(snapshot);
  snapshotVocabulary(snapshot);
  const synonyms = snapshotSynonyms(snapshot);

  let synonymGroups = 0;
  if (hasSearchPostings(snapshot)) {
    for (const phrases of synonyms.groups()) {
      groupPostings(snapshot, phrases.map((p) => ({ tokens: normalizeTokens(p), prefix: false })));
      synonymGroups++;
    }
  }

  const tree = categoryTree(snapshot);
  const cities = snapshot.prepare<[], string>(CITIES_SQL).pluck().all();
  const filters = [
    ...cities.map((city) => buildFilter(snapshot, { city })),
    ...[...tree.byId.values()].filter((n) => usableCategory(tree, n.slug)).map((n) => buildFilter(snapshot, { categorySlug: n.slug })),
  ];
  const filterClauses = warmFilterClauses(snapshot, filters.flatMap((f) => f.clauses));
  return { ms: performance.now() - started, synonymGroups, filterClauses };
}
