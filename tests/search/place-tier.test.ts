/**
 * The place tier's order (src/search/place-tier.ts placeFirst) and the bound on the
 * extra terms (src/search/term-bound.ts) as pure logic; over a real snapshot they are
 * checked in tests/search/place-and-service.test.ts and tests/http/search-cases.ts.
 */
import { describe, expect, it } from 'vitest';
import { placeFirst, type PlaceTier } from '../../src/search/place-tier.ts';
import { boundTerms } from '../../src/search/term-bound.ts';

interface C {
  id: string;
  rrfScore: number;
  namedService: boolean;
  categoryShare: number;
  place: PlaceTier | null;
}
const c = (id: string, rrfScore: number, place: PlaceTier, namedService = true, categoryShare = 0.5): C => ({ id, rrfScore, namedService, categoryShare, place });
const byScore = (a: C, b: C) => b.rrfScore - a.rrfScore || (a.id < b.id ? -1 : 1);
const ordered = (list: C[]) => [...list].sort(placeFirst(list, byScore)).map((x) => x.id);

describe('placeFirst', () => {
  it('ranks the candidates that answer the request in the place first, then near it, then elsewhere', () => {
    const list = [c('far-best', 0.06, 'elsewhere'), c('near', 0.05, 'near'), c('in-weak', 0.035, 'in'), c('in', 0.04, 'in'), c('far', 0.045, 'elsewhere')];
    expect(ordered(list)).toEqual(['in', 'in-weak', 'near', 'far-best', 'far']);
  });

  it('keeps a candidate that does not answer the request after those that do, wherever it is', () => {
    // below half of the best score; of another service than the one named
    const list = [c('best', 0.06, 'elsewhere'), c('in-low', 0.029, 'in'), c('in-other', 0.05, 'in', false), c('far', 0.04, 'elsewhere')];
    expect(ordered(list)).toEqual(['best', 'far', 'in-other', 'in-low']);
  });

  it('with no service named, counts the categories the top voted for', () => {
    const list = [c('best', 0.04, 'elsewhere', false), c('in-unvoted', 0.035, 'in', false, 0), c('in-voted', 0.03, 'in', false, 0.2)];
    expect(ordered(list)).toEqual(['in-voted', 'best', 'in-unvoted']);
  });
});

describe('boundTerms', () => {
  const t = (keywordRank: number, vectorRank: number, categoryShare: number, namedService: boolean) => {
    const plain = 1 / (60 + keywordRank) + 1 / (60 + vectorRank);
    return { keywordRank, vectorRank, categoryShare, namedService, rrfScore: plain + categoryShare / 61 + (namedService ? 1 / 61 : 0), plain };
  };

  it('scales the terms when a provider neither side ranks in its top 3 would pass the one both rank first', () => {
    const first = t(1, 1, 0, false);
    const lifted = t(5, 6, 1, true);
    const second = t(2, 9, 1, true);
    expect(lifted.rrfScore).toBeGreaterThan(first.rrfScore);
    const factor = boundTerms([first, lifted, second], 60);
    expect(factor).toBeGreaterThan(0);
    expect(factor).toBeLessThan(1);
    expect(lifted.rrfScore).toBeLessThan(first.rrfScore);
    expect(lifted.rrfScore).toBeCloseTo(lifted.plain + (factor * 2) / 61, 12);
    // a provider in a side's top 3 may still pass it
    expect(second.rrfScore).toBeCloseTo(second.plain + (factor * 2) / 61, 12);
  });

  it('changes nothing when no such provider passes it, or when no provider is first on both sides', () => {
    const list = [t(1, 1, 0.6, true), t(5, 6, 0.4, true)];
    const before = list.map((x) => x.rrfScore);
    expect(boundTerms(list, 60)).toBe(1);
    expect(list.map((x) => x.rrfScore)).toEqual(before);
    const none = [t(1, 4, 0, false), t(5, 6, 1, true)];
    expect(boundTerms(none, 60)).toBe(1);
  });
});
