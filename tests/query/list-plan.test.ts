/**
 * The provider list's page query walks the partial sort indexes over published
 * rows instead of sorting every published row (issue 7: 318 ms per page at 100k
 * when the planner chose an index on submission_status and a temp B-tree).
 * Asserted on the plan SQLite picks for the real fixture snapshot, not on time.
 */
import { describe, expect, it } from 'vitest';
import { listPageSql, ORDER_BY, type ListSort } from '../../src/query/providers.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';

const open = useFixtureSnapshot();

describe('provider list query plan', () => {
  for (const sort of Object.keys(ORDER_BY) as ListSort[]) {
    it(`sorted by ${sort}, unfiltered: walks published_by_${sort} without a temp B-tree`, () => {
      const plan = open.snapshot.db
        .prepare(`EXPLAIN QUERY PLAN ${listPageSql('TRUE', sort)}`)
        .all({ limit: 20, offset: 40 }) as { detail: string }[];
      const details = plan.map((p) => p.detail).join('\n');
      expect(details).toContain(`USING INDEX published_by_${sort}`);
      expect(details).not.toContain('TEMP B-TREE');
    });
  }
});
