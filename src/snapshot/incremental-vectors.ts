/**
 * An incremental build's change to vec_providers and vector_partitions: the vectors
 * of the providers replaced leave their lists (first and second copies), the
 * vectors of the providers written, embedded with the snapshot's own model (never
 * fitted again), join the frozen lists (vector-frozen.ts), coded with the frozen
 * scales, as a full build given those lists would place them.
 */
import type Database from 'better-sqlite3';
import type { BuiltinEmbedder } from './embedder-builtin.ts';
import { providerText, TEXT_COLUMNS, type TextRow } from './provider-vectors.ts';
import type { CategoryNames } from './snapshot-writer.ts';
import { assignFrozen, frozenLevels, type FrozenLists } from './vector-frozen.ts';
import { encodeVectors } from './vector-partitions.ts';
import { spillLists } from './vector-spill.ts';

interface ListRow {
  list: number;
  rowids: Buffer;
  spill: Buffer;
}

const copy = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

export function updateVectors(db: Database.Database, model: BuiltinEmbedder, lists: FrozenLists, categoryNames: CategoryNames, removed: ReadonlySet<number>, added: readonly number[]): number {
  const { dims } = lists;
  const rows = db.prepare(`SELECT ${TEXT_COLUMNS} FROM published_providers p WHERE p.rowid IN (SELECT value FROM json_each(?)) ORDER BY p.rowid`).all(JSON.stringify(added)) as TextRow[];
  const data = new Float32Array(rows.length * dims);
  rows.forEach((row, i) => data.set(model.embedDocumentSync(providerText(row, categoryNames)), i * dims));
  const fineOf = assignFrozen(lists, data, rows.length);
  const { second } = spillLists(data, rows.length, dims, frozenLevels(lists, fineOf), lists.spillFrom);
  const inverse = lists.scales.map((x) => 1 / x);
  const joining = new Map<number, number[]>();
  const spilling = new Map<number, number[]>();
  const push = (m: Map<number, number[]>, l: number, i: number) => m.set(l, [...(m.get(l) ?? []), i]);
  fineOf.forEach((l, i) => push(joining, l, i));
  second.forEach((l, i) => l >= 0 && push(spilling, l, i));

  const deleteVec = db.prepare('DELETE FROM vec_providers WHERE rowid = ?');
  const insertVec = db.prepare('INSERT INTO vec_providers (rowid, embedding) VALUES (?, ?)');
  const writeList = db.prepare('UPDATE vector_partitions SET rowids = ?, vectors = ?, codes = ?, spill_rowids = ? WHERE list = ?');
  // Every list's rowids (4 bytes a vector), the vectors and codes of the lists that change only.
  const touched = db.prepare('SELECT list, rowids, spill_rowids AS spill FROM vector_partitions ORDER BY list').all() as ListRow[];
  const stored = db.prepare<[number], { vectors: Buffer; codes: Buffer }>('SELECT vectors, codes FROM vector_partitions WHERE list = ?');
  db.transaction(() => {
    for (const rowid of removed) deleteVec.run(BigInt(rowid));
    rows.forEach((row, i) => insertVec.run(BigInt(row.rowid), Buffer.from(data.buffer, i * dims * 4, dims * 4)));
    for (const list of touched) {
      const rowids = new Int32Array(copy(list.rowids));
      const spill = new Int32Array(copy(list.spill));
      const joins = joining.get(list.list) ?? [];
      const spills = spilling.get(list.list) ?? [];
      const hit = (r: number) => removed.has(r);
      if (joins.length === 0 && spills.length === 0 && !rowids.some(hit) && !spill.some(hit)) continue;
      const blobs = stored.get(list.list)!;
      const vectors = new Int16Array(copy(blobs.vectors));
      const codes = new Int8Array(copy(blobs.codes));
      const encoded = encodeVectors(data, joins, dims, inverse);
      const members: { rowid: number; vector: Int16Array; code: Int8Array }[] = [];
      rowids.forEach((r, j) => {
        if (!hit(r)) members.push({ rowid: r, vector: vectors.subarray(j * dims, (j + 1) * dims), code: codes.subarray(j * dims, (j + 1) * dims) });
      });
      joins.forEach((i, j) => members.push({ rowid: rows[i]!.rowid, vector: encoded.vectors.subarray(j * dims, (j + 1) * dims), code: encoded.codes.subarray(j * dims, (j + 1) * dims) }));
      members.sort((a, b) => a.rowid - b.rowid);
      const outVectors = new Int16Array(members.length * dims);
      const outCodes = new Int8Array(members.length * dims);
      members.forEach((m, j) => {
        outVectors.set(m.vector, j * dims);
        outCodes.set(m.code, j * dims);
      });
      const outSpill = Int32Array.from([...Array.from(spill).filter((r) => !hit(r)), ...spills.map((i) => rows[i]!.rowid)].sort((a, b) => a - b));
      const outRowids = Int32Array.from(members, (m) => m.rowid);
      writeList.run(Buffer.from(outRowids.buffer), Buffer.from(outVectors.buffer), Buffer.from(outCodes.buffer), Buffer.from(outSpill.buffer), list.list);
    }
  })();
  return rows.length;
}
