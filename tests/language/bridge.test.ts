/**
 * The language bridge (src/language/bridge.ts) on a small graph, and the query
 * expansion both sides of search read (src/search/language-expansion.ts).
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bridgeLookup, DICTIONARY_STEM_PREFIX, writeLanguageBridge } from '../../src/language/bridge-table.ts';
import { wordStem } from '../../src/language/stem.ts';
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
      '^reta': [{ phrase: 'hacking', weight: 1 }],
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

  it('reaches a dictionary word through its stem when neither the dictionary nor the snapshot has the form', () => {
    // "diretas" is in no table; its stem "reta" is a dictionary word's ("retas"). "dipakai" has snapshot forms: those win.
    expect(bridgeExpansions(['diretas', 'dipakai'], lookup)).toEqual([
      { start: 0, length: 1, alternatives: [{ phrase: 'hacking', weight: 1 }] },
      { start: 1, length: 1, alternatives: [{ phrase: 'pakai', weight: 1 }] },
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

describe('the bridge table', () => {
  it('stores word forms and dictionary words under their stems beside the phrases', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE search_postings (term TEXT PRIMARY KEY, df INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO search_postings (term, df) VALUES (?, ?)');
    for (const [term, df] of vocabulary) insert.run(term, df);
    const written = writeLanguageBridge(db, { edges, sources: [] });
    const lookup = bridgeLookup(db);
    expect(written.phrases).toBeGreaterThan(0);
    expect(lookup('peretas')).toEqual([{ phrase: 'hacking', weight: 1 }]);
    // "menjaringkan" is in no dictionary: its stem is the stem of "jaringan", whose alternatives it reaches.
    expect(wordStem('menjaringkan')).toBe(wordStem('jaringan'));
    expect(lookup(DICTIONARY_STEM_PREFIX + wordStem('menjaringkan'))).toEqual([{ phrase: 'network', weight: 1 }]);
    expect(bridgeExpansions(['menjaringkan'], lookup)).toEqual([{ start: 0, length: 1, alternatives: [{ phrase: 'network', weight: 1 }] }]);
    db.close();
  });
});
