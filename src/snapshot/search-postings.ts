/**
 * search_postings: the keyword side's own index, written by the builder beside
 * fts_providers. For each term, its published providers ordered by their bm25
 * contribution (best first), with that contribution precomputed.
 *
 * Why: FTS5's bm25() scores every matching row before it can take the top k, so a
 * word found in most profiles ("jasa", "digital") costs tens of milliseconds, and a
 * `rowid IN (filter)` constraint makes FTS5 re-run the match per row (seconds).
 * bm25 is a sum over query terms, so with each term's contributions stored sorted,
 * a one-word query reads only as far as its top k, and an OR query adds a few
 * typed arrays. Scores follow FTS5's bm25 exactly (k1 = 1.2, b = 0.75, column
 * weights, idf floored at 1e-6), over the tokens of normalizeTokens, which the
 * query side uses too.
 *
 *   CREATE TABLE search_postings (term TEXT PRIMARY KEY, df INTEGER, rowids BLOB, impacts BLOB)
 *   rowids: Int32 little-endian; impacts: Float32; same length, impact desc, rowid asc
 */
import type Database from 'better-sqlite3';
import { normalizeTokens } from './embedder-text.ts';
import { namesOfCategories, type CategoryNames } from './snapshot-writer.ts';
import type { TextRow } from './provider-vectors.ts';

/** Column weights, in fts_providers column order: company_name, tagline, description,
 * capability_tags, industry_focus, category_names, city, province. A word in the name
 * or tagline says more about the service than the same word deep in a description. */
export const KEYWORD_COLUMN_WEIGHTS = [6.0, 4.0, 1.0, 3.0, 2.0, 4.0, 2.0, 1.0] as const;
const K1 = 1.2;
const B = 0.75;

export const CREATE_SEARCH_POSTINGS_SQL = `CREATE TABLE search_postings (
  term    TEXT PRIMARY KEY,
  df      INTEGER NOT NULL,
  rowids  BLOB NOT NULL,
  impacts BLOB NOT NULL
)`;


const TEXT_SQL = `SELECT p.rowid AS rowid, p.company_name, p.tagline, p.description, p.capability_tags, p.industry_focus,
  p.city, p.province,
  (SELECT group_concat(pc.category_id, char(31)) FROM provider_categories pc WHERE pc.provider_rowid = p.rowid) AS category_ids
  FROM published_providers p ORDER BY p.rowid`;

/** Growable parallel arrays: one entry per (term, provider) pair. */
class PostingBuffer {
  length = 0;
  terms = new Int32Array(1 << 16);
  rowids = new Int32Array(1 << 16);
  freqs = new Float32Array(1 << 16);

  push(term: number, rowid: number, freq: number): void {
    if (this.length === this.terms.length) {
      const grow = <T extends Int32Array | Float32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.terms = grow(this.terms);
      this.rowids = grow(this.rowids);
      this.freqs = grow(this.freqs);
    }
    this.terms[this.length] = term;
    this.rowids[this.length] = rowid;
    this.freqs[this.length] = freq;
    this.length++;
  }
}

export function writeSearchPostings(db: Database.Database, categoryNames: CategoryNames): { terms: number; postings: number } {
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  const buffer = new PostingBuffer();
  const docLength = new Map<number, number>();
  let totalLength = 0;
  const list = (json: string) => (JSON.parse(json) as string[]).join(' ');

  for (const row of db.prepare(TEXT_SQL).iterate() as IterableIterator<TextRow>) {
    const columns = [
      row.company_name,
      row.tagline,
      row.description,
      list(row.capability_tags),
      list(row.industry_focus),
      row.category_ids ? namesOfCategories(categoryNames, row.category_ids.split('\x1f')).join(' ') : '',
      row.city ?? '',
      row.province ?? '',
    ];
    // bm25 in FTS5: the column-weighted frequency of each term, and the row's token count.
    const weighted = new Map<string, number>();
    let length = 0;
    columns.forEach((text, c) => {
      const tokens = normalizeTokens(text);
      length += tokens.length;
      for (const t of tokens) weighted.set(t, (weighted.get(t) ?? 0) + KEYWORD_COLUMN_WEIGHTS[c]!);
    });
    docLength.set(row.rowid, length);
    totalLength += length;
    for (const [term, freq] of weighted) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termNames.length;
        termIds.set(term, id);
        termNames.push(term);
      }
      buffer.push(id, row.rowid, freq);
    }
  }

  const n = docLength.size;
  const avgLength = n ? totalLength / n : 1;
  // Bucket the postings by term (counting sort), then order each bucket by impact.
  const df = new Int32Array(termNames.length);
  for (let i = 0; i < buffer.length; i++) df[buffer.terms[i]!]!++;
  const start = new Int32Array(termNames.length + 1);
  for (let t = 0; t < termNames.length; t++) start[t + 1] = start[t]! + df[t]!;
  const fill = start.slice(0, termNames.length);
  const order = new Int32Array(buffer.length);
  for (let i = 0; i < buffer.length; i++) order[fill[buffer.terms[i]!]!++] = i;

  db.exec(CREATE_SEARCH_POSTINGS_SQL);
  const insert = db.prepare('INSERT INTO search_postings (term, df, rowids, impacts) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let t = 0; t < termNames.length; t++) {
      const count = df[t]!;
      const idf = Math.max(1e-6, Math.log((n - count + 0.5) / (count + 0.5)));
      const rowids = new Int32Array(count);
      const impacts = new Float32Array(count);
      const entries: { rowid: number; impact: number }[] = [];
      for (let j = start[t]!; j < start[t + 1]!; j++) {
        const i = order[j]!;
        const rowid = buffer.rowids[i]!;
        const f = buffer.freqs[i]!;
        const norm = K1 * (1 - B + (B * docLength.get(rowid)!) / avgLength);
        entries.push({ rowid, impact: Math.fround((idf * f * (K1 + 1)) / (f + norm)) });
      }
      entries.sort((a, b) => b.impact - a.impact || a.rowid - b.rowid);
      entries.forEach((e, j) => {
        rowids[j] = e.rowid;
        impacts[j] = e.impact;
      });
      insert.run(termNames[t], count, Buffer.from(rowids.buffer), Buffer.from(impacts.buffer));
    }
  })();
  return { terms: termNames.length, postings: buffer.length };
}
