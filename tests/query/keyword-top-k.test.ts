/**
 * The keyword side's early-terminating top-k (src/search/keyword-top-k.ts) is held
 * equal to an exhaustive reference that scores every profile: on generated posting
 * lists (Zipf-like document frequencies, function words with near-zero
 * contributions, ties), with phrases, prefixes, weights, filters, the all-topics
 * tier and windows from 1 to everything; and on a real fixture snapshot with the
 * queries searchProviders builds; each query both walked and added up (keyword-dense.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildFilter } from '../../src/query/filters.ts';
import { filterSet, filterSetOf, type FilterSet } from '../../src/query/filter-set.ts';
import { groupCursor, SPLIT_MIN_POSTINGS } from '../../src/search/keyword-query-cursors.ts';
import { expandedKeywordQuery, keywordQuery, type KeywordGroup, type KeywordQuery } from '../../src/search/keyword-query.ts';
import { keywordCandidates } from '../../src/search/keyword-side.ts';
import { accumulates, TILE } from '../../src/search/keyword-dense.ts';
import { TermCursor } from '../../src/search/keyword-cursors.ts';
import { topKeywordMatches } from '../../src/search/keyword-top-k.ts';
import { termPostingsOf, type PostingsSource, type TermPostings } from '../../src/search/posting-list.ts';
import { groupList, GroupScratch, MAX_EXPANSIONS, snapshotPostings } from '../../src/search/postings-store.ts';
import { snapshotSynonyms } from '../../src/search/synonyms.ts';
import { snapshotVocabulary, vocabularyEntries } from '../../src/search/vocabulary.ts';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';
import { mulberry32 as prng } from '../http/hostile.ts';
import { requestWords } from '../../src/query/nl-query.ts';


/** Every profile scored: the ranking as defined (all-topics tier, score desc, rowid asc). */
const impactMaps = new WeakMap<TermPostings, Map<number, number>>();

function exhaustive(source: PostingsSource, groups: KeywordGroup[], allowed: ReadonlySet<number> | null, allTopicsFirst: boolean, k: number): number[] {
  const mapOf = (term: string) => {
    const p = source.term(term);
    let m = impactMaps.get(p);
    if (!m) {
      m = new Map(Array.from(p.rowids, (r, i) => [r, p.impacts[i]!]));
      impactMaps.set(p, m);
    }
    return m;
  };
  const wordScore = (token: string, prefix: boolean, doc: number): number | null => {
    if (!prefix) return mapOf(token).get(doc) ?? null;
    let s = 0;
    let found = false;
    for (const e of source.expansions(token)) {
      const v = mapOf(e).get(doc);
      if (v === undefined) continue;
      s += v;
      found = true;
    }
    return found ? s : null;
  };
  const docs = new Set<number>(); // every profile holding any of the words
  for (const g of groups)
    for (const a of g.alternatives)
      for (const [i, t] of a.tokens.entries())
        for (const term of a.prefix && i === a.tokens.length - 1 ? source.expansions(t) : [t]) for (const r of mapOf(term).keys()) docs.add(r);
  const ranked: { doc: number; all: boolean; total: number }[] = [];
  for (const doc of docs) {
    if (allowed && !allowed.has(doc)) continue;
    let total = 0;
    let all = true;
    let any = false;
    for (const g of groups) {
      let gs = 0;
      let matched = false;
      for (const a of g.alternatives) {
        let s = 0;
        let ok = true;
        for (const [i, t] of a.tokens.entries()) {
          const w = wordScore(t, a.prefix && i === a.tokens.length - 1, doc);
          if (w === null) {
            ok = false;
            break;
          }
          s += w;
        }
        if (!ok) continue;
        gs += a.weight * s;
        matched = true;
      }
      total += gs;
      all &&= matched;
      any ||= matched;
    }
    // a profile holding some of the words but no whole phrase does not match
    if (any) ranked.push({ doc, all: allTopicsFirst && all, total });
  }
  ranked.sort((a, b) => Number(b.all) - Number(a.all) || b.total - a.total || a.doc - b.doc);
  return ranked.slice(0, k).map((r) => r.doc);
}

/**
 * splitMin 0: every word group walked as its largest list plus the rest (what long
 * lists at 1,000,000 providers get). accumulate: the lists added up (true) or
 * walked (false), whatever their size.
 */
const fast = (source: PostingsSource, query: Pick<KeywordQuery, 'groups' | 'allTopicsFirst'>, filter: FilterSet | null, k: number, splitMin = SPLIT_MIN_POSTINGS, accumulate?: boolean) =>
  topKeywordMatches(() => query.groups.map((g) => groupCursor(source, g, splitMin)), { k, filter, allTopicsFirst: query.allTopicsFirst, ...(accumulate === undefined ? {} : { accumulate }) });

/** Generated lists: a vocabulary with Zipf-like frequencies, a few function words worth almost nothing, ties. */
function generatedSource(seed: number, docs: number, terms: number): { source: PostingsSource; vocabulary: string[] } {
  const rand = prng(seed);
  const letters = 'abcdefghij';
  const vocabulary = Array.from({ length: terms }, (_, t) => `${letters[t % 10]}${letters[Math.floor(t / 10) % 10]}${t < 30 ? '' : letters[t % 7]}${t}`);
  const lists = new Map<string, TermPostings>();
  vocabulary.forEach((term, t) => {
    const density = Math.min(0.7, 0.9 / (t + 1) ** 0.8);
    const functionWord = t < 3;
    const idf = functionWord ? 1e-6 : Math.log(1 / density);
    const rowids: number[] = [];
    const impacts: number[] = [];
    for (let d = 1; d <= docs; d++) {
      if (rand() >= density) continue;
      rowids.push(d);
      // quantized for some terms, so equal scores (ties) happen
      const raw = idf * (0.3 + 2 * rand() * rand());
      impacts.push(t % 4 === 0 ? Math.round(raw * 4) / 4 + 0.25 : raw);
    }
    lists.set(term, termPostingsOf(Int32Array.from(rowids), Float32Array.from(impacts)));
  });
  const empty = termPostingsOf(new Int32Array(0), new Float32Array(0));
  const byDf = [...vocabulary].sort((a, b) => lists.get(b)!.rowids.length - lists.get(a)!.rowids.length || (a < b ? -1 : 1));
  const scratch = new GroupScratch();
  const source: PostingsSource = {
    term: (t) => lists.get(t) ?? empty,
    expansions: (p) => byDf.filter((t) => t.startsWith(p)).slice(0, MAX_EXPANSIONS),
    group: (g) => groupList(source, g, scratch),
  };
  return { vocabulary, source };
}

/** A source over the given lists, with no prefix expansions (the hand-made cases below). */
function sourceOf(lists: ReadonlyMap<string, TermPostings>): PostingsSource {
  const scratch = new GroupScratch();
  const source: PostingsSource = {
    term: (t) => lists.get(t)!,
    expansions: () => [],
    group: (g) => groupList(source, g, scratch),
  };
  return source;
}

/** A group of one word as typed. */
const word = (t: string): KeywordGroup => ({ alternatives: [{ tokens: [t], prefix: false, weight: 1 }] });

function randomQuery(rand: () => number, vocabulary: string[]): Pick<KeywordQuery, 'groups' | 'allTopicsFirst'> {
  const pickTerm = () => vocabulary[Math.floor(rand() ** 2 * vocabulary.length)]!;
  const groups: KeywordGroup[] = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({
    alternatives: Array.from({ length: rand() < 0.5 ? 1 : 1 + Math.floor(rand() * 6) }, () => {
      const words = rand() < 0.25 ? 2 + Math.floor(rand() * 2) : 1;
      const prefix = rand() < 0.15;
      const tokens = Array.from({ length: words }, pickTerm);
      if (prefix) tokens[tokens.length - 1] = tokens[tokens.length - 1]!.slice(0, 1 + Math.floor(rand() * 2));
      return { tokens, prefix, weight: rand() < 0.3 ? Math.round((0.1 + 0.9 * rand()) * 100) / 100 : 1 };
    }),
  }));
  return { groups, allTopicsFirst: groups.length > 1 && rand() < 0.7 };
}

function randomFilter(rand: () => number, docs: number): FilterSet | null {
  const kind = rand();
  if (kind < 0.4) return null;
  const density = kind < 0.7 ? 0.02 + rand() * 0.05 : 0.3 + rand() * 0.5;
  const rowids: number[] = [];
  for (let d = 1; d <= docs; d++) if (rand() < density) rowids.push(d);
  return filterSetOf(Int32Array.from(rowids), docs);
}

describe('keyword top-k equals the exhaustive ranking', () => {
  it('on generated lists, with phrases, prefixes, weights, filters and the all-topics tier', () => {
    const docs = 20_000;
    const { source, vocabulary } = generatedSource(11, docs, 160);
    const rand = prng(5);
    let compared = 0;
    let nonEmpty = 0;
    for (let q = 0; q < 300; q++) {
      const query = randomQuery(rand, vocabulary);
      const filter = randomFilter(rand, docs);
      const everything = exhaustive(source, query.groups, filter ? new Set(filter.rowids) : null, query.allTopicsFirst, 100_000);
      for (const k of [1, 10, 150, 100_000]) {
        const expected = everything.slice(0, k);
        for (const splitMin of [SPLIT_MIN_POSTINGS, 0])
          for (const accumulate of [false, true]) {
            expect(fast(source, query, filter, k, splitMin, accumulate), JSON.stringify({ q, k, splitMin, accumulate, query })).toEqual(expected);
            compared++;
          }
        if (expected.length > 0) nonEmpty++;
      }
    }
    expect(compared).toBe(4800);
    expect(nonEmpty).toBeGreaterThan(1000);
  });

  it('over rowids spanning several tiles of the accumulation', () => {
    const docs = 3 * TILE + 5_000;
    const { source, vocabulary } = generatedSource(17, docs, 80);
    const rand = prng(23);
    let nonEmpty = 0;
    for (let q = 0; q < 40; q++) {
      const query = randomQuery(rand, vocabulary);
      const filter = randomFilter(rand, docs);
      const everything = exhaustive(source, query.groups, filter ? new Set(filter.rowids) : null, query.allTopicsFirst, 100_000);
      for (const k of [10, 150]) {
        const expected = everything.slice(0, k);
        for (const accumulate of [false, true]) expect(fast(source, query, filter, k, SPLIT_MIN_POSTINGS, accumulate), JSON.stringify({ q, k, accumulate, query })).toEqual(expected);
      }
      // profiles past the first tile among the answers: the later tiles were summed
      if (everything.slice(0, 150).some((r) => r > TILE)) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it('keeps the profiles at the edges of a tile', () => {
    const docs = 3 * TILE + 10;
    const edges = [TILE - 1, TILE, 2 * TILE - 1, 2 * TILE, 3 * TILE];
    const list = (offset: number) => {
      const rowids = Int32Array.from({ length: docs }, (_, i) => i + 1);
      // every profile scores a little, the edges a lot (and in both lists)
      return termPostingsOf(rowids, Float32Array.from(rowids, (r) => (edges.includes(r) ? 5 + (r % 7) / 10 : 0.1 + ((r * 7919 + offset) % 97) / 1000)));
    };
    const lists = new Map([['a', list(0)], ['b', list(13)]]);
    const source = sourceOf(lists);
    const query = { groups: [word('a'), word('b')], allTopicsFirst: false };
    const expected = exhaustive(source, query.groups, null, false, 20);
    expect([...expected.slice(0, edges.length)].sort((x, y) => x - y)).toEqual(edges);
    for (const accumulate of [false, true]) expect(fast(source, query, null, 20, SPLIT_MIN_POSTINGS, accumulate)).toEqual(expected);
  });

  it('reads the tier through its rarest group once k profiles hold every group, offering a profile of two of its lists once', () => {
    const docs = 3 * TILE + 10;
    const rand = prng(41);
    const list = (every: number, offset: number) => {
      const rowids = Int32Array.from({ length: Math.ceil(docs / every) }, (_, i) => 1 + i * every + (offset % every));
      return termPostingsOf(rowids, Float32Array.from(rowids, (r) => 0.5 + ((r * 7919 + offset) % 1009) / 1000));
    };
    // "a" holds every profile; the rarest group is "b" or "c", which share every 15th profile
    const lists = new Map([['a', list(1, 0)], ['b', list(3, 0)], ['c', list(5, 0)]]);
    const source = sourceOf(lists);
    const alternatives = (...terms: string[]): KeywordGroup => ({ alternatives: terms.map((t) => ({ tokens: [t], prefix: false, weight: 1 })) });
    const query = { groups: [alternatives('a'), alternatives('b', 'c')], allTopicsFirst: true };
    const filters = [null, filterSetOf(Int32Array.from({ length: docs }, (_, i) => i + 1).filter(() => rand() < 0.3), docs)];
    for (const filter of filters)
      for (const k of [10, 150, 5_000]) {
        const expected = exhaustive(source, query.groups, filter ? new Set(filter.rowids) : null, true, k);
        // the answer reaches past the first tile: later tiles were read through the rarest group
        if (k === 5_000) expect(expected.some((r) => r > TILE)).toBe(true);
        for (const splitMin of [0, SPLIT_MIN_POSTINGS]) expect(fast(source, query, filter, k, splitMin, true), JSON.stringify({ k, splitMin, filtered: !!filter })).toEqual(expected);
      }
  });

  it('adds the common words only to the profiles a rare word proposes once their bounds fall below the bar', () => {
    const docs = 4 * TILE + 10;
    const rand = prng(59);
    // "rare" takes a few values, so its profiles are told apart by what the common words add
    const list = (every: number, offset: number, low: number, spread: number) => {
      const rowids = Int32Array.from({ length: Math.ceil(docs / every) }, (_, i) => 1 + i * every + (offset % every));
      return termPostingsOf(rowids, Float32Array.from(rowids, (r) => low + ((r * 7919 + offset) % 7) * spread));
    };
    const lists = new Map([['rare', list(97, 5, 4, 0.25)], ['common', list(1, 0, 0.05, 0.01)], ['often', list(2, 1, 0.1, 0.02)], ['di', list(1, 3, 0.001, 0.0001)]]);
    const source = sourceOf(lists);
    const filters = [null, filterSetOf(Int32Array.from({ length: docs }, (_, i) => i + 1).filter(() => rand() < 0.4), docs)];
    for (const allTopicsFirst of [false, true])
      for (const order of [['common', 'rare', 'often', 'di'], ['di', 'often', 'common', 'rare']])
        for (const filter of filters)
          for (const k of [10, 150, 1_000]) {
            const groups = order.map(word);
            const expected = exhaustive(source, groups, filter ? new Set(filter.rowids) : null, allTopicsFirst, k);
            if (k === 1_000) expect(expected.some((r) => r > 2 * TILE)).toBe(true);
            expect(fast(source, { groups, allTopicsFirst }, filter, k, SPLIT_MIN_POSTINGS, true), JSON.stringify({ order, allTopicsFirst, k, filtered: !!filter })).toEqual(expected);
          }
  });

  it('weight 1 everywhere is the unweighted ranking, and a lower weight changes it', () => {
    const { source, vocabulary } = generatedSource(3, 5000, 60);
    const [a, b] = [vocabulary[5]!, vocabulary[9]!];
    const group = (wb: number): KeywordGroup => ({ alternatives: [{ tokens: [a], prefix: false, weight: 1 }, { tokens: [b], prefix: false, weight: wb }] });
    const plain = fast(source, { groups: [group(1)], allTopicsFirst: false }, null, 50);
    expect(plain).toEqual(exhaustive(source, [group(1)], null, false, 50));
    const damped = fast(source, { groups: [group(0.2)], allTopicsFirst: false }, null, 50);
    expect(damped).toEqual(exhaustive(source, [group(0.2)], null, false, 50));
    expect(damped).not.toEqual(plain);
  });
});

describe('keyword side on a real snapshot', () => {
  const open = useFixtureSnapshot();

  it('searchProviders queries and generated ones rank as the exhaustive reference, filtered or not', () => {
    const { snapshot } = open;
    const source = snapshotPostings(snapshot);
    const vocabulary = vocabularyEntries(snapshot)
      .sort((a, b) => b.doc - a.doc)
      .map((e) => e.term);
    const rand = prng(9);
    const texts = ['toko online murah', 'aplikasi android', 'website', 'jasa seo jakarta', 'di dari untuk', 'in di', 'webiste toko onlien', 'develo', 'wordpress bandu'];
    for (let i = 0; i < 40; i++) texts.push(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => vocabulary[Math.floor(rand() ** 2 * Math.min(vocabulary.length, 400))]!).join(' '));
    const city = snapshot.db.prepare('SELECT city FROM published_providers GROUP BY city ORDER BY count(*) DESC').pluck().get() as string;
    const filters = [{}, { city }, { minTrustLevel: 3 }, { categorySlug: 'web-development' }];
    let nonEmpty = 0;
    for (const text of texts) {
      for (const query of [expandedKeywordQuery(requestWords(text), snapshotVocabulary(snapshot), snapshotSynonyms(snapshot)), keywordQuery(requestWords(text))]) {
        for (const f of filters) {
          const filter = buildFilter(snapshot, f);
          const set = filterSet(snapshot, filter);
          for (const k of [5, 150]) {
            const expected = exhaustive(source, query.groups, set ? new Set(set.rowids) : null, query.allTopicsFirst, k);
            expect(keywordCandidates(snapshot, query, filter, k), `${text} ${JSON.stringify(f)} k=${k}`).toEqual(expected);
            expect(fast(source, query, set, k, 0), `${text} ${JSON.stringify(f)} k=${k} split`).toEqual(expected);
            for (const accumulate of [false, true]) expect(fast(source, query, set, k, SPLIT_MIN_POSTINGS, accumulate), `${text} ${JSON.stringify(f)} k=${k} accumulate=${accumulate}`).toEqual(expected);
            if (expected.length > 0) nonEmpty++;
          }
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(300);
  });
});

describe('when the lists are added up', () => {
  const cursorOf = (n: number, stride: number) => new TermCursor(termPostingsOf(Int32Array.from({ length: n }, (_, i) => i * stride), new Float32Array(n).fill(1)));
  it('adds up few short lists, lists alike in length and many lists, and walks a rare list beside long ones', () => {
    expect(accumulates([cursorOf(1_000, 3), cursorOf(40_000, 2)], 2)).toBe(true); // few postings
    expect(accumulates([cursorOf(300_000, 3), cursorOf(200_000, 4)], 2)).toBe(true); // alike
    expect(accumulates([cursorOf(2_000, 97), cursorOf(300_000, 3)], 2)).toBe(false); // a rare list leads
    const sentence = [cursorOf(2_000, 97), ...Array.from({ length: 5 }, (_, i) => cursorOf(200_000 + i, 4))];
    expect(accumulates(sentence, 6)).toBe(true); // six lists: the walk's bound prunes little
    expect(accumulates(sentence.slice(0, 5), 5)).toBe(false);
  });
});
