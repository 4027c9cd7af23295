/**
 * The keyword side's posting lists, read from search_postings (written by
 * src/snapshot/search-postings.ts) on first use and kept per snapshot, bounded by
 * bytes: each term's published providers in rowid order with their bm25
 * contributions, plus what early termination needs, computed as the list is read:
 * the list's largest contribution and, per block of BLOCK postings, the block's
 * last rowid and largest contribution (block-max bounds, keyword-top-k.ts).
 *
 * Lists are loaded whole the first time a query names the term (a million-provider
 * list of a function word is 4 MB, read in about a millisecond) and never
 * materialized per query: queries walk them with cursors (keyword-cursors.ts).
 */
import { CostBoundedLru } from '../query/lru.ts';
import type { Snapshot } from '../query/snapshot.ts';

/** Postings per block of the block-max bounds. */
export const BLOCK = 64;
/** Most terms a prefix stands for: the most frequent ones. */
export const MAX_EXPANSIONS = 24;
/** Bytes of term lists kept per snapshot (the common words of a million providers take a few MB each). */
const TERM_CACHE_BYTES = 192 * 1024 * 1024;

export interface TermPostings {
  /** ascending */
  rowids: Int32Array;
  /** bm25 contribution of the term to each profile */
  impacts: Float32Array;
  /** the last rowid of each block */
  blockLast: Int32Array;
  /** the largest impact of each block */
  blockMax: Float32Array;
  /** the largest impact of the list (0 when empty) */
  max: number;
}

/** A list with its block bounds (the builder's arrays, or a test's). */
export function termPostingsOf(rowids: Int32Array, impacts: Float32Array): TermPostings {
  const blocks = Math.ceil(rowids.length / BLOCK);
  const blockLast = new Int32Array(blocks);
  const blockMax = new Float32Array(blocks);
  let max = 0;
  for (let b = 0; b < blocks; b++) {
    const end = Math.min(rowids.length, (b + 1) * BLOCK);
    let m = 0;
    for (let i = b * BLOCK; i < end; i++) if (impacts[i]! > m) m = impacts[i]!;
    blockMax[b] = m;
    blockLast[b] = rowids[end - 1]!;
    if (m > max) max = m;
  }
  return { rowids, impacts, blockLast, blockMax, max };
}

const EMPTY = termPostingsOf(new Int32Array(0), new Float32Array(0));

const TERM_SQL = 'SELECT rowids, impacts FROM search_postings WHERE term = ?';
const EXPANSIONS_SQL = 'SELECT term FROM search_postings WHERE term >= ? AND term < ? ORDER BY df DESC, term LIMIT ?';

/** Copied out of SQLite's buffer into an aligned array. */
const copyOf = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);

/** A term's list; empty for a term no profile has. */
export function termPostings(snapshot: Snapshot, term: string): TermPostings {
  const cache = snapshot.memo('term-postings', () => new CostBoundedLru<string, TermPostings>(TERM_CACHE_BYTES));
  const hit = cache.get(term);
  if (hit) return hit;
  const row = snapshot.prepare<[string], { rowids: Buffer; impacts: Buffer }>(TERM_SQL).get(term);
  const list = row ? termPostingsOf(new Int32Array(copyOf(row.rowids)), new Float32Array(copyOf(row.impacts))) : EMPTY;
  cache.set(term, list, 96 + 8 * list.rowids.length + 8 * list.blockLast.length);
  return list;
}

/** The indexed terms a prefix stands for, most frequent first. */
export function expansions(snapshot: Snapshot, prefix: string): string[] {
  const cache = snapshot.memo('term-expansions', () => new CostBoundedLru<string, string[]>(4 * 1024 * 1024));
  let terms = cache.get(prefix);
  if (!terms) {
    terms = snapshot.prepare<[string, string, number], string>(EXPANSIONS_SQL).pluck().all(prefix, `${prefix}\uffff`, MAX_EXPANSIONS);
    cache.set(prefix, terms, 64 + terms.reduce((n, t) => n + 2 * t.length + 16, 0));
  }
  return terms;
}

/** Where cursors get their lists: a snapshot's store, or a test's arrays. */
export interface PostingsSource {
  term(term: string): TermPostings;
  expansions(prefix: string): string[];
}

export const snapshotPostings = (snapshot: Snapshot): PostingsSource =>
  snapshot.memo('postings-source', () => ({
    term: (t: string) => termPostings(snapshot, t),
    expansions: (p: string) => expansions(snapshot, p),
  }));
