import { describe, expect, it } from 'vitest';
import { buildQueryMix, COMMON_WORDS, stratifiedSubset } from '../../bench/queries.ts';

describe('the query mix', () => {
  const mix = buildQueryMix(1000);

  it('is the same on every run', () => {
    expect(buildQueryMix(1000)).toEqual(mix);
  });

  it('has 1 to 5 words per query', () => {
    for (const q of mix) {
      const n = q.q.split(/\s+/).length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(5);
    }
  });

  it('covers common words, every class, and filtered and unfiltered queries', () => {
    expect(new Set(mix.map((q) => q.cls))).toEqual(new Set(['common-1', 'rare-1', 'phrase-id', 'phrase-en', 'mixed']));
    expect(mix.filter((q) => q.cls === 'common-1').every((q) => COMMON_WORDS.includes(q.q))).toBe(true);
    expect(mix.some((q) => q.city)).toBe(true);
    expect(mix.some((q) => q.categorySlug)).toBe(true);
    expect(mix.filter((q) => !q.city && !q.categorySlug).length).toBeGreaterThan(250);
  });

  it('takes an evenly spread subset', () => {
    const sub = stratifiedSubset(mix, 200);
    expect(sub).toHaveLength(200);
    expect(sub[1]).toBe(mix[6]);
    expect(new Set(sub.map((q) => q.cls)).size).toBe(5);
  });
});
