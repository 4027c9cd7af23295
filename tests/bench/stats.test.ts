import { describe, expect, it } from 'vitest';
import { percentile, recallAtK, summarize, summarizeBy } from '../../bench/stats.ts';

describe('percentile (nearest rank)', () => {
  const hundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);

  it('picks the nearest-rank sample', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
  });

  it('is NaN for no samples and the minimum at p0', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([3, 4], 0)).toBe(3);
  });
});

describe('summarize', () => {
  it('sorts before ranking and reports count, mean and max', () => {
    const s = summarize([5, 1, 4, 2, 3]);
    expect(s).toMatchObject({ count: 5, p50Ms: 3, p99Ms: 5, maxMs: 5, meanMs: 3 });
  });

  it('groups by label in a stable order', () => {
    const by = summarizeBy([
      { label: 'b', ms: 2 },
      { label: 'a', ms: 1 },
      { label: 'b', ms: 4 },
    ]);
    expect(Object.keys(by)).toEqual(['a', 'b']);
    expect(by.b).toMatchObject({ count: 2, p50Ms: 2, maxMs: 4 });
  });
});

describe('recallAtK', () => {
  it('counts the exact top-k that were found', () => {
    expect(recallAtK([1, 2, 9], [1, 2, 3], 3)).toBeCloseTo(2 / 3);
    expect(recallAtK([3, 2, 1], [1, 2, 3], 3)).toBe(1);
    expect(recallAtK([4], [], 3)).toBe(1);
  });
});
