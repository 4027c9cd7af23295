/**
 * Group lists (src/search/postings-store.ts): a group of words at weight 1 (a
 * prefix's expansions, a word and its translation) is merged from its words' lists
 * window by window, or in one pass for two lists. Held equal, score for score, to a
 * plain per-profile sum: on generated lists (one to two dozen, sparse and dense,
 * spanning several windows, empty ones among them) and on a real fixture snapshot.
 */
import { describe, expect, it } from 'vitest';
import { BLOCK, termPostingsOf, type PostingsSource, type TermPostings } from '../../src/search/posting-list.ts';
import { groupList, GroupScratch, snapshotPostings } from '../../src/search/postings-store.ts';
import type { KeywordGroup } from '../../src/search/keyword-query.ts';
import { mulberry32 as prng } from '../http/hostile.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';

/** Each profile's score as the definition adds it: the largest list's contribution plus the others' in list order. */
function referenceSums(lists: TermPostings[]): Map<number, number> {
  let head = 0;
  lists.forEach((l, i) => {
    if (l.rowids.length > lists[head]!.rowids.length) head = i;
  });
  const rest = new Map<number, number>();
  lists.forEach((l, i) => {
    if (i !== head) l.rowids.forEach((r, j) => rest.set(r, (rest.get(r) ?? 0) + l.impacts[j]!));
  });
  const sums = new Map(rest);
  lists[head]!.rowids.forEach((r, j) => sums.set(r, lists[head]!.impacts[j]! + (rest.get(r) ?? 0)));
  return new Map([...sums].sort((a, b) => a[0] - b[0]));
}

function expectListOf(list: TermPostings, sums: Map<number, number>): void {
  expect([...list.rowids]).toEqual([...sums.keys()]);
  expect([...list.impacts]).toEqual([...sums.values()]);
  for (let b = 0; b < list.blockMax.length; b++) {
    expect(list.blockMax[b]).toBe(Math.max(...list.impacts.subarray(b * BLOCK, (b + 1) * BLOCK)));
    expect(list.blockLast[b]).toBe(list.rowids[Math.min(list.rowids.length, (b + 1) * BLOCK) - 1]);
  }
}

const wordGroup = (words: string[]): KeywordGroup => ({ alternatives: words.map((w) => ({ tokens: [w], prefix: false, weight: 1 })) });

describe('group lists of words at weight 1', () => {
  it('equal the per-profile sums on generated lists, from two lists to two dozen', () => {
    const rand = prng(5);
    const lists = new Map<string, TermPostings>();
    const words: string[] = [];
    for (let t = 0; t < 40; t++) {
      // densities from nearly every profile to a handful, rowids past several windows
      const density = t % 10 === 9 ? 0 : 0.8 / (t + 1);
      const rowids: number[] = [];
      const impacts: number[] = [];
      for (let r = 1; r < 70_000; r++)
        if (rand() < density) {
          rowids.push(r);
          impacts.push(Math.fround(0.1 + 3 * rand()));
        }
      words.push(`w${t}`);
      lists.set(`w${t}`, termPostingsOf(Int32Array.from(rowids), Float32Array.from(impacts)));
    }
    const empty = termPostingsOf(new Int32Array(0), new Float32Array(0));
    const scratch = new GroupScratch();
    const source: PostingsSource = {
      term: (t) => lists.get(t) ?? empty,
      expansions: () => [],
      group: (g) => groupList(source, g, scratch),
    };
    for (const size of [2, 2, 3, 5, 12, 24]) {
      for (let trial = 0; trial < 4; trial++) {
        const picked = Array.from({ length: size }, () => words[Math.floor(rand() * words.length)]!);
        const list = groupList(source, wordGroup(picked), scratch);
        expectListOf(list, referenceSums(picked.map((w) => source.term(w))));
      }
    }
    // one word is its own list
    expect(groupList(source, wordGroup(['w0']), scratch)).toBe(lists.get('w0'));
  });
});

describe('group lists on a real snapshot', () => {
  const open = useFixtureSnapshot();

  it('a prefix is the per-profile sum of its expansions, and a word and its translation of their lists', () => {
    const source = snapshotPostings(open.snapshot);
    const scratch = new GroupScratch();
    let merged = 0;
    for (const prefix of ['a', 'p', 'de', 'web', 'ja']) {
      const terms = source.expansions(prefix);
      if (terms.length < 2) continue;
      merged++;
      const list = groupList(source, { alternatives: [{ tokens: [prefix], prefix: true, weight: 1 }] }, scratch);
      expectListOf(list, referenceSums(terms.map((t) => source.term(t))));
    }
    expect(merged).toBeGreaterThan(2);
    const pair = ['website', 'toko'];
    expectListOf(groupList(source, wordGroup(pair), scratch), referenceSums(pair.map((t) => source.term(t))));
  });
});
