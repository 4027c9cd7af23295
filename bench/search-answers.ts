/**
 * Same answers, old code against new: prints the first page of the long-tail mix's
 * queries through `searchProviders` (rowids, scores, ranks, matched terms, meta),
 * one JSON line per query, so two checkouts' outputs can be compared byte for byte:
 *
 *   node bench/search-answers.ts --db FILE --queries 3000 [--root DIR] > new.jsonl
 *   (cd OLD_CHECKOUT && node /path/to/bench/search-answers.ts --root . --db FILE ...) > old.jsonl
 *   cmp old.jsonl new.jsonl
 *
 * `--root` is the checkout whose src/ answers (this one by default): the script
 * loads its search and warm-up modules from there.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildLongTailMix } from './long-tail-queries.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, root: { type: 'string' } } });
  if (!values.db) throw new Error('--db FILE is required');
  const root = pathToFileURL(`${resolve(values.root ?? new URL('..', import.meta.url).pathname)}/`);
  const { Snapshot } = await import(new URL('src/query/snapshot.ts', root).href);
  const { searchProviders } = await import(new URL('src/search/search.ts', root).href);
  const { warmSearch } = await import(new URL('src/search/warm.ts', root).href);
  const snapshot = new Snapshot(values.db);
  warmSearch(snapshot);
  for (const q of buildLongTailMix(values.db, Number(values.queries ?? 3000))) {
    const filters = { ...(q.city ? { city: q.city } : {}), ...(q.categorySlug ? { categorySlug: q.categorySlug } : {}) };
    const result = await searchProviders(snapshot, { query: q.q, filters, sort: 'relevance', page: 1, limit: 20 });
    const items = result.items.map((h: { row: { rowid: number }; search: unknown }) => [h.row.rowid, h.search]);
    process.stdout.write(`${JSON.stringify({ q, items, meta: result.meta })}\n`);
  }
  snapshot.close();
}

await main();
