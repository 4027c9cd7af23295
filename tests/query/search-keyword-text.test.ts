/**
 * The keyword side's structured query, without a snapshot: typo tolerance (edit
 * distance, vocabulary corrections), service synonym groups, filler words, the
 * all-topics tier, and that hostile text only ever becomes index tokens.
 */
import { describe, expect, it } from 'vitest';
import { buildSynonymTable } from '../../src/search/synonyms.ts';
import { expandedKeywordQuery, type KeywordQuery } from '../../src/search/keyword-query.ts';
import { buildVocabulary, editBudget, editDistance } from '../../src/search/vocabulary.ts';
import { requestWords } from '../../src/query/nl-query.ts';

const vocabulary = buildVocabulary(
  [
    ['android', 40], ['website', 90], ['toko', 50], ['online', 60], ['wordpress', 30], ['testing', 12],
    ['tasting', 2], ['well', 70], ['google', 20], ['developer', 55], ['bandung', 15], ['olahraga', 1], ['e', 30], ['commerce', 30],
  ].map(([term, doc]) => ({ term: term as string, doc: doc as number })),
);
const synonyms = buildSynonymTable({
  'e-commerce': 'toko online|olshop|e-commerce|online shop',
  wordpress: 'wordpress|wp',
});
const expand = (text: string) => expandedKeywordQuery(requestWords(text), vocabulary, synonyms);
/** Groups as text: alternatives joined by |, a prefix marked *, a weight below 1 as ^w. */
const shown = (q: KeywordQuery) =>
  q.groups.map((g) => g.alternatives.map((a) => `${a.tokens.join(' ')}${a.prefix ? '*' : ''}${a.weight < 1 ? `^${a.weight}` : ''}`).join('|'));

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit', () => {
    expect(editDistance('andriod', 'android', 2)).toBe(1);
    expect(editDistance('wordpres', 'wordpress', 2)).toBe(1);
    expect(editDistance('clowd', 'cloud', 2)).toBe(1);
    expect(editDistance('tesing', 'testing', 2)).toBe(1);
    expect(editDistance('logo', 'logo', 1)).toBe(0);
  });

  it('stops at budget + 1', () => {
    expect(editDistance('website', 'android', 1)).toBe(2);
    expect(editDistance('ab', 'abcdef', 2)).toBe(3);
  });

  it('allows no edit under 4 letters, one up to 7, two from 8 (AUTO:4,8)', () => {
    expect([editBudget('seo'), editBudget('iphon'), editBudget('kubernetis')]).toEqual([0, 1, 2]);
  });
});

describe('vocabulary corrections', () => {
  it('replaces an unknown word by its closest indexed words, most frequent first', () => {
    expect(vocabulary.corrections('andriod')).toEqual(['android']);
    expect(vocabulary.corrections('tesing')).toEqual(['testing']);
    // one edit from both "testing" and "tasting": the more frequent first
    expect(vocabulary.corrections('tsting')).toEqual(['testing', 'tasting']);
  });

  it('keeps the first letter, corrects no known word and no short word', () => {
    expect(vocabulary.corrections('sell')).toEqual([]); // "well" is one edit away but starts otherwise
    expect(vocabulary.corrections('website')).toEqual([]);
    expect(vocabulary.corrections('tok')).toEqual([]);
  });

  it('answers prefixes of indexed words', () => {
    expect(vocabulary.hasPrefix('devel')).toBe(true);
    expect(vocabulary.hasPrefix('zzz')).toBe(false);
  });
});

describe('expanded keyword query', () => {
  it('turns a service phrase into a group of its synonyms and drops filler words', () => {
    const q = expand('jasa bikin toko online');
    expect(shown(q)).toEqual(['toko online|olshop|e commerce|online shop']);
    expect(q.allTopicsFirst).toBe(false);
    expect(q.terms).toEqual(['toko', 'online']);
  });

  it('corrects typos before looking phrases up', () => {
    const q = expand('webiste toko onlien');
    expect(shown(q)).toEqual(['website', 'toko online|olshop|e commerce|online shop']);
    expect(q.allTopicsFirst).toBe(true);
    expect(q.terms).toEqual(['website', 'toko', 'online']);
  });

  it('keeps a word typed halfway as a prefix, and a known lexicon word as it is', () => {
    expect(shown(expand('wordpress bandu'))).toEqual(['wordpress|wp', 'bandu*']);
    expect(expand('wordpress bandu').prefixLast).toBe(true);
    expect(shown(expand('olshop'))).toEqual(['toko online|olshop|e commerce|online shop']); // one group per service
  });

  it('searches filler words as typed when nothing else is left', () => {
    // the plain query's rule: function words still dropped, request filler kept
    expect(shown(expand('jasa yang terbaik'))).toEqual(['jasa', 'terbaik*']);
    expect(expand('!!! ???').groups).toEqual([]);
  });

  it('leaves out a dictionary alternative made only of function words', () => {
    // "since" -> "dari" (600,000 postings at a million providers) would add no topic, only cost
    const bridge = (phrase: string) =>
      phrase === 'since' ? [{ phrase: 'dari', weight: 0.8 }, { phrase: 'sejak dari', weight: 0.8 }, { phrase: 'mulai', weight: 0.8 }, { phrase: 'sejak awal', weight: 0.8 }] : [];
    const q = expandedKeywordQuery(requestWords('bandung since'), buildVocabulary([...'bandung since mulai dari sejak awal'.split(' ')].map((term) => ({ term, doc: 5 }))), synonyms, bridge);
    expect(shown(q)).toEqual(['bandung', 'since|mulai|sejak awal']);
    // only function words: the word is searched as if the bridge did not know it
    const whilst = expandedKeywordQuery(requestWords('whilst bandung '), buildVocabulary([{ term: 'bandung', doc: 5 }]), synonyms, (p) => (p === 'whilst' ? [{ phrase: 'dari', weight: 0.8 }] : []));
    expect(shown(whilst)).toEqual(['whilst', 'bandung']);
  });

  it('gives every alternative weight 1 (an expansion below 1 is the caller\'s to add)', () => {
    for (const text of ['webiste toko onlien', 'wordpress bandu', 'jasa yang terbaik'])
      for (const g of expand(text).groups) for (const a of g.alternatives) expect(a.weight).toBe(1);
  });

  it('turns hostile text into index tokens only: no operator survives as syntax', () => {
    const hostile = [
      'NEAR(toko online) AND "web" OR *',
      'wordpres" OR 1=1 --',
      '"unbalanced ((( ^col:term',
      `${'a'.repeat(500)} ${'toko '.repeat(300)}`,
      'emoji 🚀 toko\u0000online',
    ];
    for (const text of hostile) {
      const q = expand(text);
      expect(q.groups.length).toBeGreaterThan(0);
      expect(q.groups.length).toBeLessThanOrEqual(12);
      for (const g of q.groups)
        for (const a of g.alternatives) for (const t of a.tokens) expect(t, text).toMatch(/^[\p{L}\p{N}]+$/u);
    }
  });
});
