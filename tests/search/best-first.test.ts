/**
 * BestFirst (src/search/best-first.ts): the vector probe visits fine lists in the
 * order it yields, so it must be the ranking's order (score desc, id asc), however
 * many the taker takes, and the same after clear() reuses its arrays.
 */
import { describe, expect, it } from 'vitest';
import { BestFirst } from '../../src/search/best-first.ts';
import { mulberry32 as prng } from '../http/hostile.ts';

const random = prng(7);

/** n items with scores from a few values (many ties), ids shuffled */
function items(n: number): { score: number; id: number }[] {
  const ids = Array.from({ length: n }, (_, i) => i * 3);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.map((id) => ({ score: Math.floor(random() * 7) / 7 - 0.5, id }));
}

const ranked = (list: { score: number; id: number }[]) => [...list].sort((a, b) => b.score - a.score || a.id - b.id).map((x) => x.id);

describe('BestFirst', () => {
  it('yields every item in ranking order, then -1, and again after clear()', () => {
    const order = new BestFirst(500);
    for (const n of [0, 1, 2, 9, 500, 137]) {
      const list = items(n);
      order.clear();
      for (const { score, id } of list) order.add(score, id);
      order.build();
      const taken: number[] = [];
      for (let id = order.next(); id >= 0; id = order.next()) taken.push(id);
      expect(taken).toEqual(ranked(list));
      expect(order.next()).toBe(-1);
    }
  });

  it('gives the best m first when only m are taken', () => {
    const order = new BestFirst(300);
    const list = items(300);
    for (const { score, id } of list) order.add(score, id);
    order.build();
    expect(Array.from({ length: 20 }, () => order.next())).toEqual(ranked(list).slice(0, 20));
  });
});
