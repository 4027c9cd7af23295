/** firstInOrder (src/search/first-in-order.ts) against a full sort, for every n around the list's length. */
import { describe, expect, it } from 'vitest';
import { firstInOrder } from '../../src/search/first-in-order.ts';
import { mulberry32 as prng } from '../http/hostile.ts';

interface Item {
  score: number;
  rank: number;
}
// a total order as search's comparators are: score desc (many ties), then rank asc (unique)
const order = (a: Item, b: Item) => b.score - a.score || a.rank - b.rank;

describe('firstInOrder', () => {
  it.each([0, 1, 5, 37, 300])('gives the first n of %i items as sorting all of them does', (count) => {
    const random = prng(count + 3);
    const ranks = Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
    const items = ranks.map((rank) => ({ score: Math.floor(random() * 8), rank }));
    const sorted = [...items].sort(order);
    for (const n of [0, 1, 2, 10, 20, count - 1, count, count + 5]) {
      if (n < 0) continue;
      expect(firstInOrder(items, n, order)).toEqual(sorted.slice(0, n));
    }
    // the input is left as it was
    expect(items.map((i) => i.rank)).toEqual(ranks);
  });
});
