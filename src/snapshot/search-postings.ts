/**
 * search_postings: the keyword side's index (the only one search reads; fts_providers
 * stays in the file for analysts). For each term, its published providers in rowid
 * order with their bm25 contribution precomputed.
 *
 * Why: FTS5's bm25() scores every matching row before it can take the top k, so a
 * word found in most profiles ("jasa", "digital") costs tens of milliseconds, and a
 * `rowid IN (filter)` constraint makes FTS5 re-run the match per row (seconds).
 * bm25 is a sum over query terms, so with each term's contributions stored, the
 * query side walks the lists in rowid order and skips what cannot reach its top k
 * (src/search/keyword-top-k.ts). Scores follow FTS5's bm25 exactly (k1 = 1.2,
 * b = 0.75, column weights, idf floored at 1e-6), over the tokens of
 * normalizeTokens, which the query side uses too.
 *
 *   CREATE TABLE search_postings (term TEXT PRIMARY KEY, df INTEGER, rowids BLOB, impacts BLOB,
 *                                 block_last BLOB, block_max BLOB)
 *   rowids: Int32 little-endian, ascending; impacts: Float32, same length;
 *   block_last: Int32, block_max: Float64, one per block of 32 postings (posting-blocks.ts)
 *
 * The block bounds are what the query side's early termination skips by; stored,
 * a list read for the first time needs no pass over it (a million-provider list of
 * a common word is half a million postings), for 12 bytes per 32 postings (5% more).
 *
 * The postings are collected while the rows stream in (the builder hands each
 * published provider's FTS column texts to PostingsAccumulator.add, usually on a
 * worker thread: search-postings-builder.ts), so no text is read back or tokenized
 * twice. Memory: 8 bytes per (term, provider) pair, in 4 MB slabs that never copy
 * (about 420 MB for the 52 M pairs of a million providers).
 */
import type Database from 'better-sqlite3';
import { normalizeTokens } from '../text/tokens.ts';
import { blockBounds } from './posting-blocks.ts';

/** Column weights, in fts_providers column order: company_name, tagline, description,
 * capability_tags, industry_focus, category_names, city, province. A word in the name
 * or tagline says more about the service than the same word deep in a description. */
export const KEYWORD_COLUMN_WEIGHTS = [6.0, 4.0, 1.0, 3.0, 2.0, 4.0, 2.0, 1.0] as const;
const K1 = 1.2;
const B = 0.75;

/**
 * The corpus statistics bm25 scores with: the documents (published providers), their
 * total token count, and each term's document frequency. A full build computes them;
 * an incremental build and a build given them (frozen-stats.ts) keep those of the last
 * full build, and a term that build did not see counts as found in one document.
 */
export interface Bm25Stats {
  documents: number;
  totalLength: number;
  df(term: string): number | undefined;
}

/** FTS5's idf, floored at 1e-6. */
export function bm25Idf(documents: number, df: number): number {
  return Math.max(1e-6, Math.log((documents - df + 0.5) / (df + 0.5)));
}

/** One term's contribution: its column-weighted frequency `f` in a document of `length` tokens. */
export function bm25Impact(idf: number, f: number, length: number, avgLength: number): number {
  const norm = K1 * (1 - B + (B * length) / avgLength);
  return Math.fround((idf * f * (K1 + 1)) / (f + norm));
}

/** The column-weighted frequency of each term of a document's FTS column texts, and its token count. */
export function weightedTerms(columns: readonly string[]): { weighted: Map<string, number>; length: number } {
  const weighted = new Map<string, number>();
  let length = 0;
  for (let c = 0; c < columns.length; c++) {
    const tokens = normalizeTokens(columns[c]!);
    length += tokens.length;
    const weight = KEYWORD_COLUMN_WEIGHTS[c]!;
    for (const t of tokens) weighted.set(t, (weighted.get(t) ?? 0) + weight);
  }
  return { weighted, length };
}

/** avgLength of the statistics (1 for an empty corpus, as FTS5). */
export const averageLength = (stats: Pick<Bm25Stats, 'documents' | 'totalLength'>): number => (stats.documents ? stats.totalLength / stats.documents : 1);

export const CREATE_SEARCH_POSTINGS_SQL = `CREATE TABLE search_postings (
  term    TEXT PRIMARY KEY,
  df      INTEGER NOT NULL,
  rowids  BLOB NOT NULL,
  impacts BLOB NOT NULL,
  block_last BLOB NOT NULL,
  block_max  BLOB NOT NULL
)`;

/** One row of search_postings, ready to insert. */
export interface PostingRow {
  term: string;
  df: number;
  rowids: Int32Array;
  impacts: Float32Array;
  blockLast: Int32Array;
  blockMax: Float64Array;
}

// Pairs live in blocks of BLOCK entries cut from slabs of SLAB entries (4 MB per
// array). A slab that size is its own mapping, handed back to the system when freed;
// millions of small arrays would stay in the allocator's heap after the build needs them.
const BLOCK = 256;
const SLAB = 1 << 20;
const BLOCKS_PER_SLAB = SLAB / BLOCK;

/** Fixed-size blocks of (rowid, weighted frequency) pairs. */
class BlockStore {
  rowids: Int32Array[] = [];
  freqs: Float32Array[] = [];
  private blocks = 0;

  /** A new block's number. */
  allocate(): number {
    if (this.blocks === this.rowids.length * BLOCKS_PER_SLAB) {
      this.rowids.push(new Int32Array(SLAB));
      this.freqs.push(new Float32Array(SLAB));
    }
    return this.blocks++;
  }
}

/** A term's pairs in arrival (= rowid) order: its blocks, the last one filled up to `fill`. */
interface TermList {
  count: number;
  blocks: number[];
  fill: number;
}

/**
 * Collects the postings of published providers as they stream in (in rowid order)
 * and yields the finished rows of search_postings, term by term in first-seen order.
 */
export class PostingsAccumulator {
  private readonly termIds = new Map<string, number>();
  private readonly lists: TermList[] = [];
  private store = new BlockStore();
  private readonly terms: string[] = [];
  private docLength = new Int32Array(1 << 16);
  private documents = 0;
  private totalLength = 0;
  postings = 0;

  /** `columns`: the FTS column texts, in fts_providers order. */
  add(rowid: number, columns: readonly string[]): void {
    // bm25 in FTS5: the column-weighted frequency of each term, and the row's token count.
    const { weighted, length } = weightedTerms(columns);
    if (rowid >= this.docLength.length) {
      const grown = new Int32Array(Math.max(rowid + 1, this.docLength.length * 2));
      grown.set(this.docLength);
      this.docLength = grown;
    }
    this.docLength[rowid] = length;
    this.documents++;
    this.totalLength += length;
    for (const [term, freq] of weighted) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.terms.length;
        this.termIds.set(term, id);
        this.terms.push(term);
        this.lists.push({ count: 0, blocks: [], fill: BLOCK });
      }
      const list = this.lists[id]!;
      if (list.fill === BLOCK) {
        list.blocks.push(this.store.allocate());
        list.fill = 0;
      }
      const block = list.blocks[list.blocks.length - 1]!;
      const at = (block % BLOCKS_PER_SLAB) * BLOCK + list.fill;
      this.store.rowids[Math.floor(block / BLOCKS_PER_SLAB)]![at] = rowid;
      this.store.freqs[Math.floor(block / BLOCKS_PER_SLAB)]![at] = freq;
      list.fill++;
      list.count++;
      this.postings++;
    }
  }

  get termCount(): number {
    return this.terms.length;
  }

  /** The statistics of the documents added. */
  get stats(): { documents: number; totalLength: number } {
    return { documents: this.documents, totalLength: this.totalLength };
  }

  /** The rows of search_postings, scored with `frozen` when given, else with the added documents' statistics; the pairs are released after the last one. */
  *rows(frozen?: Bm25Stats): Generator<PostingRow> {
    const n = frozen?.documents ?? this.documents;
    const avgLength = averageLength(frozen ?? this.stats);
    for (let t = 0; t < this.terms.length; t++) {
      const list = this.lists[t]!;
      const count = list.count;
      const idf = bm25Idf(n, frozen ? (frozen.df(this.terms[t]!) ?? 1) : count);
      const rowids = new Int32Array(count);
      const impacts = new Float32Array(count);
      let j = 0;
      for (const block of list.blocks) {
        const slabRowids = this.store.rowids[Math.floor(block / BLOCKS_PER_SLAB)]!;
        const slabFreqs = this.store.freqs[Math.floor(block / BLOCKS_PER_SLAB)]!;
        const start = (block % BLOCKS_PER_SLAB) * BLOCK;
        for (let i = start; i < start + BLOCK && j < count; i++, j++) {
          const rowid = slabRowids[i]!;
          const f = slabFreqs[i]!;
          rowids[j] = rowid;
          impacts[j] = bm25Impact(idf, f, this.docLength[rowid]!, avgLength);
        }
      }
      yield { term: this.terms[t]!, df: count, rowids, impacts, ...blockBounds(rowids, impacts) };
    }
    this.store = new BlockStore();
  }
}

/** Creates search_postings; returns a function that inserts rows (inside the caller's transaction). */
export function postingsTable(db: Database.Database): (row: PostingRow) => void {
  db.exec(CREATE_SEARCH_POSTINGS_SQL);
  const insert = db.prepare('INSERT INTO search_postings (term, df, rowids, impacts, block_last, block_max) VALUES (?, ?, ?, ?, ?, ?)');
  const blob = (a: Int32Array | Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return (row) => {
    insert.run(row.term, row.df, blob(row.rowids), blob(row.impacts), blob(row.blockLast), blob(row.blockMax));
  };
}
