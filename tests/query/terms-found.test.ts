/**
 * termsFoundIn scans the folded text for each term between token boundaries; it
 * must give exactly the answer of looking the terms up among normalizeTokens(text)
 * (the definition it replaced), on ASCII and on Unicode text alike.
 */
import { describe, expect, it } from 'vitest';
import { normalizeTokens } from '../../src/text/tokens.ts';
import { termsFoundIn } from '../../src/search/keyword-query.ts';

function byTokens(text: string, terms: string[], prefixLast: boolean): string[] {
  const words = new Set(normalizeTokens(text));
  return terms.filter((term, i) => words.has(term) || (prefixLast && i === terms.length - 1 && [...words].some((w) => w.startsWith(term))));
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['web', 'website', 'webs', 'design', 'desain', 'jasa', 'app', 'apps', 'e', 'commerce', 'ui', 'ux', '3d', '2024', 'café', 'Désain', 'ÉCOLE', 'straße', '日本', '😀', '𠀀', 'x'];
const GLUE = [' ', ', ', '-', '/', '.', '—', '', '\n', '(', ') ', '😀', '日'];

describe('termsFoundIn', () => {
  it('equals the token-set lookup on generated ASCII and Unicode texts', () => {
    const random = rng(7);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    let found = 0;
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(PIECES) + pick(GLUE)).join('');
      const tokens = normalizeTokens(text);
      const candidates = [...tokens, ...tokens.map((t) => t.slice(0, Math.max(1, t.length - 1))), 'web', 'sign', 'cafe', 'strasse', 'ecole', '日本', 'zz'];
      const terms = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(candidates));
      for (const prefixLast of [false, true]) {
        const expected = byTokens(text, terms, prefixLast);
        expect(termsFoundIn(text, { terms, prefixLast }), JSON.stringify({ text, terms, prefixLast })).toEqual(expected);
        found += expected.length;
      }
    }
    // The generator must exercise both answers, not only misses.
    expect(found).toBeGreaterThan(3000);
  });

  it('needs a token boundary before a term and, unless it is the typed prefix, after it', () => {
    const text = 'Jasa pembuatan website, e-commerce & UI/UX';
    expect(termsFoundIn(text, { terms: ['web', 'site', 'commerce', 'ux'], prefixLast: false })).toEqual(['commerce', 'ux']);
    expect(termsFoundIn(text, { terms: ['ux', 'web'], prefixLast: true })).toEqual(['ux', 'web']);
    expect(termsFoundIn(text, { terms: ['web', 'ux'], prefixLast: true })).toEqual(['ux']);
  });
});
