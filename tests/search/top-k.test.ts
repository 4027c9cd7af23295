/** TopK (src/search/top-k.ts) against a full sort: score desc, ties by rowid asc. */
import { describe, expect, it } from 'vitest';
import { TopK } from '../../src/search/top-k.ts';
import { mulberry32 as prng } from '../http/hostile.ts';

interface Item {
  score: number;
  id: number;
}
const best = (items: Item[], k: number) =>
  [...items]
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k)
    .map((i) => i.id);

function stream(seed: number, count: number): Item[] {
  const random = prng(seed);
  const ids = Array.from({ length: count }, (_, i) => i + 1).sort(() => random() - 0.5);
  // few distinct scores: many ties, decided by the id
  return ids.map((id) => ({ score: Math.floor(random() * 6), id }));
}

describe('TopK', () => {
  it.each([0, 1, 7, 150])('keeps the %i best of a stream with ties, as a full sort orders them', (k) => {
    const items = stream(k + 11, 500);
    const top = new TopK(k);
    for (const { score, id } of items) top.push(score, id);
    expect(top.ids()).toEqual(best(items, k));
  });
});
