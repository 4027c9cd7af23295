/**
 * The request tokenizer (src/text/tokens.ts): tokenize gives normalizeTokens' tokens,
 * and tokensOutside gives what tokenizing the text again with ranges blanked out
 * would, on ASCII text and on text whose folding changes its characters (accents,
 * combining marks, fullwidth forms, surrogate pairs).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../http/hostile.ts';
import { normalizeTokens, tokenize, tokensOutside } from '../../src/text/tokens.ts';

const blanked = (text: string, ranges: [number, number][]) => {
  let out = text;
  for (const [start, end] of ranges) out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
  return out;
};

describe('tokenize and tokensOutside', () => {
  it('read a request as normalizeTokens does', () => {
    expect(tokenize('Jasa SEO di Bandung!').tokens).toEqual(['jasa', 'seo', 'di', 'bandung']);
    expect(tokenize('Désain  café ｗｅｂ').tokens).toEqual(normalizeTokens('Désain  café ｗｅｂ'));
    expect(tokenize('web rating 4+ di Bandung').starts).toEqual([0, 4, 11, 14, 17]);
  });

  it('leave a range out, cutting a token it crosses', () => {
    const read = tokenize('website budget 50 juta di Bandung');
    expect(tokensOutside(read, [[15, 22]])).toEqual({ tokens: ['website', 'budget', 'di', 'bandung'], from: [0, 1, 4, 5] });
    expect(tokensOutside(tokenize('webdesign'), [[3, 4]]).tokens).toEqual(['web', 'esign']);
  });

  it('match tokenizing the blanked text on 5,000 random texts', () => {
    const rand = mulberry32(45);
    // (no capital sigma: lowercasing it depends on what follows, so a blanked neighbour changes it; tokensOutside's comment)
    const alphabet = ['a', 'B', 'é', 'σ', ' ', '½', 'İ', '$', '4', '.', ',', '+', '😀', '\u0301', 'ｗ', '-', 'rp', 'jt', ' k', 'ß'];
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: 1 + Math.floor(rand() * 24) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      const ranges: [number, number][] = [];
      for (let r = Math.floor(rand() * 3); r > 0; r--) {
        const start = Math.floor(rand() * text.length);
        ranges.push([start, Math.min(text.length, start + 1 + Math.floor(rand() * 6))]);
      }
      // as the constraint and budget patterns' matches: whole characters, never a combining mark alone
      const whole = ranges.filter(([s, e]) => !/[\udc00-\udfff]/.test(text[s] ?? '') && !/[\udc00-\udfff]/.test(text[e] ?? '') && !/\p{M}/u.test(text.slice(s, e)));
      expect(tokensOutside(tokenize(text), whole).tokens, JSON.stringify({ text, whole })).toEqual(normalizeTokens(blanked(text, whole)));
    }
  });
});
