/**
 * provider_tags, gathered in memory and written in key order at the end of the
 * load. The table's key is (kind, value_key, provider_rowid) and providers arrive
 * in rowid order, so each tag's rowids come already sorted: only the few distinct
 * tags (141 at 1,000,000 providers, for 7.5 million rows) need sorting. Staging the
 * rows in a temporary table and copying them sorted cost 55 s at 1,000,000 providers
 * (17 s of inserts, 39 s of sorting and copying); one statement per tag reading its
 * rowids through json_each writes the same rows in key order.
 */
import type Database from 'better-sqlite3';
import type { TagRow } from './provider-columns.ts';

interface TagGroup {
  kind: TagRow['kind'];
  value: string;
  valueKey: string;
  rowids: Int32Array;
  count: number;
}

export class TagGroups {
  private readonly groups = new Map<string, TagGroup>();

  /** The provider's rows; rowids must not decrease from one call to the next. */
  add(rowid: number, rows: readonly TagRow[]): void {
    for (const row of rows) {
      // A spelling of its own is a group of its own: value is a column of the row.
      const key = `${row.kind}\u0000${row.value_key}\u0000${row.value}`;
      let group = this.groups.get(key);
      if (!group) {
        group = { kind: row.kind, value: row.value, valueKey: row.value_key, rowids: new Int32Array(64), count: 0 };
        this.groups.set(key, group);
      }
      if (group.count === group.rowids.length) {
        const grown = new Int32Array(group.rowids.length * 2);
        grown.set(group.rowids);
        group.rowids = grown;
      }
      group.rowids[group.count++] = rowid;
    }
  }

  /** Inserts every row into provider_tags, tag by tag in key order. */
  write(db: Database.Database): void {
    const insert = db.prepare(
      `INSERT INTO provider_tags (provider_rowid, kind, value, value_key)
       SELECT j.value, ?, ?, ? FROM json_each(?) j`,
    );
    const order = (g: TagGroup) => [g.kind, g.valueKey, g.value];
    const sorted = [...this.groups.values()].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    });
    for (const g of sorted) insert.run(g.kind, g.value, g.valueKey, JSON.stringify(Array.from(g.rowids.subarray(0, g.count))));
    this.groups.clear();
  }
}
