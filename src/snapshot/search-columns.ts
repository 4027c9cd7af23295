/**
 * search_columns: what search reads for every provider by rowid, as one blob a
 * column, so that a server starting on a snapshot reads 40 MB instead of walking
 * indexes (1,000,000 providers: 2.3-2.8 s for the sort columns and 0.8-1.1 s for
 * the primary categories at every start, on a 2-core Xeon). Read by
 * src/query/published-columns.ts and src/search/category-coherence.ts.
 *
 *   CREATE TABLE search_columns (name TEXT PRIMARY KEY, data BLOB NOT NULL)
 *   one value per rowid 0 .. max(providers.rowid), 0 for a rowid that is not a published provider:
 *     published         Uint8    1 for a published provider (the published_providers rule)
 *     trust, rating, reviews     Float64  trust_level, overall_rating, total_reviews
 *     slug_rank         Int32    position in slug order among the published (BINARY order, as `<` on the ASCII slugs)
 *     primary_category  Int32    categories.rowid of the provider's primary category (provider_categories.position 0)
 */
import type Database from 'better-sqlite3';

export const CREATE_SEARCH_COLUMNS_SQL = 'CREATE TABLE search_columns (name TEXT PRIMARY KEY, data BLOB NOT NULL)';

// The partial indexes over published rows (schema.sql: published_by_*, whose WHERE is the
// published_providers rule), each covering one column, and the slug index for the order:
// index entries only. Reading the view visited every provider row: 2.5-4 s at 1,000,000.
const PUBLISHED = "submission_status = 'approved' AND published_at IS NOT NULL";
const COLUMN_SQL = {
  rating: `SELECT rowid, overall_rating FROM providers INDEXED BY published_by_rating WHERE ${PUBLISHED}`,
  trust: `SELECT rowid, trust_level FROM providers INDEXED BY published_by_trust WHERE ${PUBLISHED}`,
  reviews: `SELECT rowid, total_reviews FROM providers INDEXED BY published_by_reviews WHERE ${PUBLISHED}`,
} as const;
const SLUG_ORDER_SQL = 'SELECT rowid FROM providers ORDER BY slug';
const PRIMARY_SQL =
  'SELECT pc.provider_rowid, c.rowid FROM provider_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.position = 0';

const bytesOf = (a: Uint8Array | Int32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Computes and writes search_columns (after the providers, their categories and the partial indexes). */
export function writeSearchColumns(db: Database.Database): void {
  const n = ((db.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0) + 1;
  const published = new Uint8Array(n);
  const columns = { rating: new Float64Array(n), trust: new Float64Array(n), reviews: new Float64Array(n) };
  for (const [name, column] of Object.entries(columns) as [keyof typeof columns, Float64Array][]) {
    for (const [rowid, value] of db.prepare(COLUMN_SQL[name]).raw().iterate() as IterableIterator<[number, number]>) {
      published[rowid] = 1;
      column[rowid] = value;
    }
  }
  const slugRank = new Int32Array(n);
  let rank = 0;
  for (const rowid of db.prepare(SLUG_ORDER_SQL).pluck().iterate() as IterableIterator<number>) if (published[rowid] === 1) slugRank[rowid] = rank++;
  const primary = new Int32Array(n);
  for (const [rowid, category] of db.prepare(PRIMARY_SQL).raw().iterate() as IterableIterator<[number, number]>) if (published[rowid] === 1) primary[rowid] = category;
  db.exec(CREATE_SEARCH_COLUMNS_SQL);
  const insert = db.prepare('INSERT INTO search_columns (name, data) VALUES (?, ?)');
  db.transaction(() => {
    insert.run('published', bytesOf(published));
    for (const [name, column] of Object.entries(columns)) insert.run(name, bytesOf(column));
    insert.run('slug_rank', bytesOf(slugRank));
    insert.run('primary_category', bytesOf(primary));
  })();
}
