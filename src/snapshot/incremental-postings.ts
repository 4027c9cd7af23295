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
      const { rowids, impacts } = mergeList(oldRowids, oldImpacts, without, adds);
      out.dfAbs += Math.abs(rowids.length - (frozenDf ?? 0)) - Math.abs(oldRowids.length - (frozenDf ?? 0));
      if (rowids.length === 0) {
        drop.run(term);
        continue;
      }
      const { blockLast, blockMax } = blockBounds(rowids, impacts);
      write.run(term, rowids.length, blob(rowids), blob(impacts), blob(blockLast), blob(blockMax));
    }
  })();
  return out;
}

/** The first index of `sorted` whose value is `value` or more. */
function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A list in rowid order without the postings of `gone` and with `adds`: the kept runs
 * copied whole, so a change to a list of 800,000 postings costs a few copies.
 */
export function mergeList(rowids: Int32Array, impacts: Float32Array, gone: ReadonlySet<number> | undefined, adds: readonly { rowid: number; impact: number }[]): { rowids: Int32Array; impacts: Float32Array } {
  const removeAt: number[] = [];
  for (const r of gone ?? []) {
    const k = lowerBound(rowids, r);
    if (rowids[k] === r) removeAt.push(k);
  }
  removeAt.sort((x, y) => x - y);
  const added = [...adds].sort((a, b) => a.rowid - b.rowid);
  const outRowids = new Int32Array(rowids.length - removeAt.length + added.length);
  const outImpacts = new Float32Array(outRowids.length);
  let from = 0;
  let to = 0;
  const copyUpTo = (end: number) => {
    outRowids.set(rowids.subarray(from, end), to);
    outImpacts.set(impacts.subarray(from, end), to);
    to += end - from;
    from = end;
  };
  let a = 0;
  let d = 0;
  while (a < added.length || d < removeAt.length) {
    const nextAdd = a < added.length ? lowerBound(rowids, added[a]!.rowid) : Infinity;
    const nextRemove = d < removeAt.length ? removeAt[d]! : Infinity;
    if (nextAdd <= nextRemove) {
      copyUpTo(nextAdd);
      outRowids[to] = added[a]!.rowid;
      outImpacts[to++] = added[a++]!.impact;
    } else {
      copyUpTo(nextRemove);
      from++;
      d++;
    }
  }
  copyUpTo(rowids.length);
  return { rowids: outRowids, impacts: outImpacts };
}
