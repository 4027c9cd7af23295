/**
 * The long-tail query mix (bench/long-tail-queries.ts) drawn from a real fixture
 * snapshot: distinct queries, words from the providers' own text with function
 * words kept, the share of city and category filters, deterministic for a seed.
 */
import { describe, expect, it } from 'vitest';
import { buildLongTailMix, longTailPath } from '../../bench/long-tail-queries.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';

const open = useFixtureSnapshot();

describe('long-tail query mix', () => {
  it('draws distinct queries from the providers text, function words and filters included', () => {
    const file = open.fixture.dbFile;
    const mix = buildLongTailMix(file, 1000);
    expect(mix).toHaveLength(1000);
    expect(new Set(mix.map(longTailPath)).size).toBe(1000);
    const words = mix.flatMap((q) => q.q.split(' '));
    for (const functionWord of ['di', 'dan', 'untuk']) expect(words, functionWord).toContain(functionWord);
    const share = (f: (q: (typeof mix)[number]) => boolean) => mix.filter(f).length / mix.length;
    expect(share((q) => q.city !== undefined)).toBeGreaterThan(0.15);
    expect(share((q) => q.city !== undefined)).toBeLessThan(0.25);
    expect(share((q) => q.categorySlug !== undefined)).toBeGreaterThan(0.06);
    expect(share((q) => q.categorySlug !== undefined)).toBeLessThan(0.14);
    expect(new Set(mix.map((q) => q.kind))).toEqual(new Set(['words', 'span', 'sentence']));
    expect(mix.some((q) => q.q.split(' ').length >= 6)).toBe(true);
    // every word of a query occurs in the snapshot's text
    const text = (open.snapshot.db.prepare("SELECT group_concat(lower(tagline || ' ' || description), ' ') FROM published_providers").pluck().get() as string);
    for (const q of mix.slice(0, 50)) for (const w of q.q.split(' ')) expect(text, w).toContain(w);
    expect(buildLongTailMix(file, 1000)).toEqual(mix);
  });
});
