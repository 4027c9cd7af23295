/**
 * The provider list's page query walks the partial sort indexes over published
 * rows instead of sorting every published row (issue 7: 318 ms per page at 100k
 * when the planner chose an index on submission_status and a temp B-tree).
 * Asserted on the plan SQLite picks for the real fixture snapshot, not on time.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/query/snapshot.ts';
import { listPageSql, ORDER_BY, type ListSort } from '../../src/query/providers.ts';
import { buildFixture, type Fixture } from '../http/fixture.ts';

let fixture: Fixture;
let snapshot: Snapshot;

beforeAll(async () => {
  fixture = await buildFixture();
  snapshot = new Snapshot(fixture.dbFile);
});

afterAll(() => {
  snapshot?.close();
  if (fixture) fs.rmSync(fixture.dir, { recursive: true, force: true });
});

describe('provider list query plan', () => {
  for (const sort of Object.keys(ORDER_BY) as ListSort[]) {
    it(`sorted by ${sort}, unfiltered: walks published_by_${sort} without a temp B-tree`, () => {
      const plan = snapshot.db
        .prepare(`EXPLAIN QUERY PLAN ${listPageSql('TRUE', sort)}`)
        .all({ limit: 20, offset: 40 }) as { detail: string }[];
      const details = plan.map((p) => p.detail).join('\n');
      expect(details).toContain(`USING INDEX published_by_${sort}`);
      expect(details).not.toContain('TEMP B-TREE');
    });
  }
});
