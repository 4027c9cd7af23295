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
 *
 * A full build computes them from the tables (writeSearchColumns); an incremental one
 * (build-incremental.ts) changes the values of the rowids it rewrote (updateSearchColumns),
 * the slug ranks by merging its rows into the order the others keep: a few row reads and
 * array passes instead of walking four indexes of every provider (6 s at 1,000,000).
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
const ROW_SQL = `SELECT rowid, slug, trust_level, overall_rating, total_reviews,
  (SELECT c.rowid FROM provider_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.provider_rowid = p.rowid AND pc.position = 0) AS primary_category
  FROM providers p WHERE rowid IN (SELECT value FROM json_each(?)) AND ${PUBLISHED} ORDER BY slug`;
/** The rows before a slug, nearest first: the first one kept gives the slug's place among the kept. */
const BEFORE_SQL = 'SELECT rowid FROM providers WHERE slug < ? ORDER BY slug DESC';

const bytesOf = (a: Uint8Array | Int32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

const NAMES = ['published', 'trust', 'rating', 'reviews', 'slug_rank', 'primary_category'] as const;

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

type Column = Uint8Array | Int32Array | Float64Array;
type ColumnType = { new (n: number): Column; BYTES_PER_ELEMENT: number };
const TYPES: Record<(typeof NAMES)[number], ColumnType> = {
  published: Uint8Array,
  trust: Float64Array,
  rating: Float64Array,
  reviews: Float64Array,
  slug_rank: Int32Array,
  primary_category: Int32Array,
};

/** A stored column as an array (a copy: SQLite's buffer need not be aligned). */
function stored(data: Buffer, C: ColumnType): Column {
  const out = new C(data.byteLength / C.BYTES_PER_ELEMENT);
  new Uint8Array(out.buffer).set(data);
  return out;
}

/**
 * search_columns after an incremental build rewrote the providers at `rowids` (edited,
 * added or gone): their values recomputed, every other value kept, and the slug ranks
 * renumbered, the rewritten published rows merged into the order the kept ones hold.
 * Returns the number of published providers.
 */
export function updateSearchColumns(db: Database.Database, rowids: readonly number[]): number {
  const n = ((db.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0) + 1;
  const blobs = new Map(db.prepare('SELECT name, data FROM search_columns').raw().all() as [string, Buffer][]);
  const old = Object.fromEntries(NAMES.map((name) => [name, stored(blobs.get(name)!, TYPES[name])])) as Record<(typeof NAMES)[number], Column>;
  const rewritten = new Set(rowids);
  // the kept published rows in slug order (their old ranks, the rewritten ones left out)
  let oldPublished = 0;
  for (let r = 0; r < old.published.length; r++) oldPublished += old.published[r]!;
  const oldOrder = new Int32Array(oldPublished);
  for (let r = 0; r < old.published.length; r++) if (old.published[r] === 1) oldOrder[old.slug_rank[r]!] = r;
  const kept = oldOrder.filter((r) => !rewritten.has(r));
  const keptIndex = new Int32Array(n).fill(-1);
  kept.forEach((r, i) => (keptIndex[r] = i));

  const columns = Object.fromEntries(NAMES.map((name) => {
    const column = new TYPES[name](n);
    column.set(old[name].subarray(0, n));
    for (const r of rowids) if (r < n) column[r] = 0;
    return [name, column];
  })) as Record<(typeof NAMES)[number], Column>;
  type Row = { rowid: number; slug: string; trust_level: number; overall_rating: number; total_reviews: number; primary_category: number | null };
  const rows = db.prepare(ROW_SQL).all(JSON.stringify(rowids)) as Row[];
  for (const row of rows) {
    columns.published[row.rowid] = 1;
    columns.trust[row.rowid] = row.trust_level;
    columns.rating[row.rowid] = row.overall_rating;
    columns.reviews[row.rowid] = row.total_reviews;
    columns.primary_category[row.rowid] = row.primary_category ?? 0;
  }
  // each rewritten published row goes after the nearest kept row before its slug (rows are in slug order, so their places are too)
  const before = db.prepare(BEFORE_SQL).pluck();
  const after = rows.map((row) => {
    for (const r of before.iterate(row.slug) as IterableIterator<number>) if (keptIndex[r]! >= 0) return keptIndex[r]!;
    return -1;
  });
  const rank = columns.slug_rank;
  let next = 0;
  let place = 0;
  for (let i = -1; i < kept.length; i++) {
    if (i >= 0) rank[kept[i]!] = place++;
    while (next < rows.length && after[next] === i) rank[rows[next++]!.rowid] = place++;
  }
  const update = db.prepare('UPDATE search_columns SET data = ? WHERE name = ?');
  db.transaction(() => {
    for (const name of NAMES) update.run(bytesOf(columns[name]), name);
  })();
  return place;
}
