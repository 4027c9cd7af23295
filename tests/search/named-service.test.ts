/**
 * The named-service term of rrfScore (src/search/named-service.ts) as pure logic:
 * which primary-category numbers a request's services stand for, and what the term
 * adds. Over a real snapshot it is checked in tests/query/search.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CategoryNode, CategoryTree } from '../../src/query/categories.ts';
import { addNamedService, namedCategoryNumbers } from '../../src/search/named-service.ts';

const node = (id: string, parentId: string | null, active = true): CategoryNode => ({ id, slug: `s-${id}`, name: id, parentId, active });
const nodes = [node('apps', null), node('android', 'apps'), node('ios', 'apps', false), node('web', null), node('shop', 'web'), node('old', null, false)];
const tree: CategoryTree = {
  byId: new Map(nodes.map((n) => [n.id, n])),
  bySlug: new Map(nodes.map((n) => [n.slug, n])),
  roots: nodes
    .filter((n) => n.parentId === null && n.active)
    .map((n) => ({ node: n, children: nodes.filter((c) => c.parentId === n.id && c.active) })),
};
// primary-category numbers as category-coherence.ts assigns them: only categories someone holds as primary
const numbers = new Map([['apps', 1], ['android', 2], ['ios', 3], ['shop', 4], ['old', 5]]);

describe('namedCategoryNumbers', () => {
  it('a top-level service stands for itself and its active children', () => {
    expect([...namedCategoryNumbers(tree, numbers, ['s-apps'])].sort()).toEqual([1, 2]);
  });

  it('a child stands for itself only, and several services add up', () => {
    expect([...namedCategoryNumbers(tree, numbers, ['s-android', 's-shop'])].sort()).toEqual([2, 4]);
  });

  it('unknown, inactive and never-primary categories stand for nothing', () => {
    expect(namedCategoryNumbers(tree, numbers, ['s-nope', 's-old', 's-ios']).size).toBe(0);
  });
});

describe('addNamedService', () => {
  const categories = Int32Array.from([0, 1, 2, 4, 0]);
  const candidates = () => [1, 2, 3, 4].map((rowid) => ({ rowid, rrfScore: 1 / (60 + rowid), namedService: false }));

  it('adds 1 / (k + 1) to candidates of a named category and marks them', () => {
    const list = candidates();
    addNamedService(list, categories, new Set([2, 4]), 60);
    expect(list.map((c) => c.namedService)).toEqual([false, true, true, false]);
    expect(list[1]!.rrfScore).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(list[0]!.rrfScore).toBe(1 / 61);
    // the named service's provider at rank 3 now outranks the one at rank 1
    expect(list[2]!.rrfScore).toBeGreaterThan(list[0]!.rrfScore);
  });

  it('changes nothing when the request names no service, or one no candidate holds as primary', () => {
    const list = candidates();
    addNamedService(list, categories, new Set(), 60);
    addNamedService(list, categories, new Set([7]), 60);
    expect(list.every((c) => !c.namedService && c.rrfScore === 1 / (60 + c.rowid))).toBe(true);
  });
});
