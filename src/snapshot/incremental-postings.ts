/**
 * An incremental build's change to search_postings (search-postings.ts): the lists of
 * the terms of the providers replaced lose their postings, the lists of the terms of
 * the providers written gain theirs, scored with the frozen bm25 statistics
 * (frozen-stats.ts) exactly as a full build given those statistics scores them; a
 * list left empty is deleted. Only the lists of those terms are read and written.
 */
import type Database from 'better-sqlite3';
import { averageLength, bm25Idf, bm25Impact, weightedTerms, type Bm25Stats } from './search-postings.ts';
import { blockBounds } from './posting-blocks.ts';

export interface Doc {
  rowid: number;
  /** FTS column texts, in fts_providers order */
  columns: readonly string[];
}

export interface PostingsChanged {
  terms: number;
  /** change of the published documents' count and total length */
  documents: number;
  totalLength: number;
  /** change of the drift's sum of |df now - df frozen| (snapshot-drift.ts) */
  dfAbs: number;
}

const blob = (a: Int32Array | Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const view = <T extends Int32Array | Float32Array>(b: Buffer, C: { new (buf: ArrayBuffer): T }): T => new C(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);

export function updatePostings(db: Database.Database, frozen: Bm25Stats, removed: readonly Doc[], added: readonly Doc[]): PostingsChanged {
  const out: PostingsChanged = { terms: 0, documents: added.length - removed.length, totalLength: 0, dfAbs: 0 };
  const gone = new Map<string, Set<number>>();
  for (const doc of removed) {
    const { weighted, length } = weightedTerms(doc.columns);
    out.totalLength -= length;
    for (const term of weighted.keys()) {
      const set = gone.get(term) ?? new Set<number>();
      set.add(doc.rowid);
      gone.set(term, set);
    }
  }
  const avgLength = averageLength(frozen);
  const fresh = new Map<string, { rowid: number; f: number; length: number }[]>();
  for (const doc of added) {
    const { weighted, length } = weightedTerms(doc.columns);
    out.totalLength += length;
    for (const [term, f] of weighted) {
      const list = fresh.get(term) ?? [];
      list.push({ rowid: doc.rowid, f, length });
      fresh.set(term, list);
    }
  }
  const read = db.prepare<[string], { rowids: Buffer; impacts: Buffer }>('SELECT rowids, impacts FROM search_postings WHERE term = ?');
  const write = db.prepare('INSERT OR REPLACE INTO search_postings (term, df, rowids, impacts, block_last, block_max) VALUES (?, ?, ?, ?, ?, ?)');
  const drop = db.prepare('DELETE FROM search_postings WHERE term = ?');
  db.transaction(() => {
    for (const term of new Set([...gone.keys(), ...fresh.keys()])) {
      out.terms++;
      const row = read.get(term);
      const oldRowids = row ? view(row.rowids, Int32Array) : new Int32Array(0);
      const oldImpacts = row ? view(row.impacts, Float32Array) : new Float32Array(0);
      const without = gone.get(term);
      const frozenDf = frozen.df(term);
      const idf = bm25Idf(frozen.documents, frozenDf ?? 1);
      const adds = (fresh.get(term) ?? []).map((p) => ({ rowid: p.rowid, impact: bm25Impact(idf, p.f, p.length, avgLength) }));
      const merged: { rowid: number; impact: number }[] = [];
      for (let i = 0; i < oldRowids.length; i++) if (!without?.has(oldRowids[i]!)) merged.push({ rowid: oldRowids[i]!, impact: oldImpacts[i]! });
      merged.push(...adds);
      merged.sort((a, b) => a.rowid - b.rowid);
      out.dfAbs += Math.abs(merged.length - (frozenDf ?? 0)) - Math.abs(oldRowids.length - (frozenDf ?? 0));
      if (merged.length === 0) {
        drop.run(term);
        continue;
      }
      const rowids = Int32Array.from(merged, (m) => m.rowid);
      const impacts = Float32Array.from(merged, (m) => m.impact);
      const { blockLast, blockMax } = blockBounds(rowids, impacts);
      write.run(term, merged.length, blob(rowids), blob(impacts), blob(blockLast), blob(blockMax));
    }
  })();
  return out;
}
