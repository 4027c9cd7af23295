/**
 * The language bridge (src/language/bridge.ts) on a small graph, and the query
 * expansion both sides of search read (src/search/language-expansion.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildBridge, MAX_ALTERNATIVES } from '../../src/language/bridge.ts';
import type { Edge } from '../../src/language/sources.ts';
import { bridgeExpansions, bridgedSpellings, MAX_GROUPS } from '../../src/search/language-expansion.ts';

const vocabulary = new Map([
  ['hacking', 5], ['network', 9], ['office', 4], ['website', 20], ['kantor', 2], ['biro', 1], ['cloud', 7],
]);
const edges: Edge[] = [
  { a: 'hacker', b: 'peretas', weight: 1 }, // neither in the snapshot: "hacker" is written "hacking" there
  { a: 'network', b: 'jaringan', weight: 1 },
  { a: 'office', b: 'kantor', weight: 1 },
  { a: 'kantor', b: 'biro', weight: 0.5 }, // a thesaurus synonym of a word the snapshot uses: not added to it
  { a: 'website', b: 'situs web', weight: 1 },
  { a: 'awan', b: 'mega', weight: 0.5 }, // nothing of it in the snapshot
];

describe('buildBridge', () => {
  const bridge = buildBridge(edges, vocabulary);

  it('gives a dictionary word the snapshot words it means, in the snapshot form', () => {
    expect(bridge.get('peretas')).toEqual([{ phrase: 'hacking', weight: 1 }]);
    expect(bridge.get('jaringan')).toEqual([{ phrase: 'network', weight: 1 }]);
    expect(bridge.get('situs web')).toEqual([{ phrase: 'website', weight: 1 }]);
  });

  it('adds only translations to a word the snapshot uses, and nothing that leads nowhere', () => {
    expect(bridge.get('kantor')).toEqual([{ phrase: 'office', weight: 1 }]);
    expect(bridge.has('awan')).toBe(false);
    expect(bridge.has('mega')).toBe(false);
  });

  it('keeps at most MAX_ALTERNATIVES per phrase', () => {
    const many: Edge[] = ['network', 'office', 'website', 'cloud', 'hacking'].map((b) => ({ a: 'serba', b, weight: 1 }));
    expect(buildBridge(many, vocabulary).get('serba')).toHaveLength(MAX_ALTERNATIVES);
  });
});

describe('query expansion', () => {
  const table = new Map(
    Object.entries({
      peretas: [{ phrase: 'hacking', weight: 1 }],
      jaringan: [{ phrase: 'network', weight: 1 }],
      'situs web': [{ phrase: 'website', weight: 1 }],
      kantor: [{ phrase: 'office', weight: 1 }],
      '~paka': [{ phrase: 'pakai', weight: 1 }],
    }),
  );
  const lookup = (phrase: string) => table.get(phrase) ?? [];

  it('finds two-word phrases first, then words, then word forms; never overlapping', () => {
    const groups = bridgeExpansions(['situs', 'web', 'peretas', 'yang', 'dipakai', 'di', 'kantor'], lookup);
    expect(groups).toEqual([
      { start: 0, length: 2, alternatives: [{ phrase: 'website', weight: 1 }] },
      { start: 2, length: 1, alternatives: [{ phrase: 'hacking', weight: 1 }] },
      { start: 4, length: 1, alternatives: [{ phrase: 'pakai', weight: 1 }] },
      { start: 6, length: 1, alternatives: [{ phrase: 'office', weight: 1 }] },
    ]);
  });

  it('is capped, so a long query cannot explode', () => {
    const words = Array.from({ length: 30 }, () => 'peretas');
    expect(bridgeExpansions(words, lookup)).toHaveLength(MAX_GROUPS);
  });

  it('keyword side: an indexed word keeps itself first, an unknown one is replaced', () => {
    const indexed = (w: string) => w === 'kantor';
    const spellings = bridgedSpellings(['peretas', 'kantor', 'jasa'], (i) => i === 2, lookup, indexed);
    expect([...spellings]).toEqual([
      [0, ['hacking']],
      [1, ['kantor', 'office']],
    ]);
  });
});
