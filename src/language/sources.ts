/**
 * General-purpose language data from Debian packages, found at their install
 * paths, turned into one graph of related phrases (src/language/bridge.ts reads it):
 *   dict-freedict-eng-ind  English -> Indonesian (FreeDict/WikDict, CC-BY-SA-3.0): translation edges
 *   mythes-id              Indonesian thesaurus (LGPL-2.1): synonym edges
 *   wordnet-base           Princeton WordNet 3.0 (WordNet licence): synonym edges, most frequent sense
 * A missing package is skipped: the build works without any of them (with a weaker bridge).
 */
import fs from 'node:fs';
import path from 'node:path';
import { dictBody, freedictTranslations, readDictd } from './dictd.ts';
import { phraseKey } from './fold.ts';
import { readMythes } from './mythes.ts';
import { readWordnetIndex, readWordnetSynsets } from './wordnet.ts';

export interface LanguageDataPaths {
  freedictEngInd: { index: string; dict: string };
  mythesId: string;
  wordnetDir: string;
}

export const DEBIAN_PATHS: LanguageDataPaths = {
  freedictEngInd: { index: '/usr/share/dictd/freedict-eng-ind.index', dict: '/usr/share/dictd/freedict-eng-ind.dict.dz' },
  mythesId: '/usr/share/mythes/th_id_ID_v2.dat',
  wordnetDir: '/usr/share/wordnet',
};

/** One relation between two phrases (folded), with how much it is trusted (0-1]. */
export interface Edge {
  a: string;
  b: string;
  weight: number;
}

export interface SourceReport {
  name: 'dict-freedict-eng-ind' | 'mythes-id' | 'wordnet-base';
  used: boolean;
  /** entries read (headwords, thesaurus words, lemmas) */
  entries: number;
}

export interface LanguageData {
  edges: Edge[];
  sources: SourceReport[];
}

/** Weights: a translation is a strong link; a thesaurus synonym shares one sense among several. */
export const EDGE_WEIGHTS = { translation: 1, thesaurus: 0.5, wordnet: 0.5 } as const;
/** Longer phrases are definitions more than names: not bridged. */
const MAX_PHRASE_WORDS = 3;
/** Synonym lists longer than this are loose associations ("kantor": balai, biro, dewan, dinas, ...): first ones only. */
const MAX_SYNONYMS_PER_SENSE = 6;
/**
 * A word's first sense only (WordNet orders senses by frequency, the thesaurus
 * lists the common one first): a second sense is as often another meaning.
 * Measured (hybrid nDCG@10): the project's paraphrases 0.565 -> 0.579, the
 * independent set alike; a third sense lost 0.05 on the project's paraphrases.
 */
const MAX_SENSES = 1;

const usable = (key: string) => key.length > 1 && key.split(' ').length <= MAX_PHRASE_WORDS;

/** The edges read so far; `add` keys both phrases and keeps the edge when both are usable. */
class EdgeCollector {
  readonly edges: Edge[] = [];
  // Every phrase is keyed many times over (a WordNet lemma once per synset it shares): fold each once per load.
  private readonly keys = new Map<string, string>();

  private keyOf(text: string): string {
    let key = this.keys.get(text);
    if (key === undefined) this.keys.set(text, (key = phraseKey(text)));
    return key;
  }

  add(a: string, b: string, weight: number): void {
    const ka = this.keyOf(a);
    const kb = this.keyOf(b);
    if (ka !== kb && usable(ka) && usable(kb)) this.edges.push({ a: ka, b: kb, weight });
  }
}

function freedict(paths: LanguageDataPaths['freedictEngInd'], edges: EdgeCollector): number {
  const entries = readDictd(fs.readFileSync(paths.index, 'utf8'), dictBody(fs.readFileSync(paths.dict)));
  for (const { headword, text } of entries) {
    for (const translation of freedictTranslations(text)) edges.add(headword, translation, EDGE_WEIGHTS.translation);
  }
  return entries.length;
}

function mythes(file: string, edges: EdgeCollector): number {
  const thesaurus = readMythes(fs.readFileSync(file));
  for (const [word, senses] of thesaurus) {
    for (const sense of senses.slice(0, MAX_SENSES)) {
      for (const synonym of sense.slice(0, MAX_SYNONYMS_PER_SENSE)) edges.add(word, synonym, EDGE_WEIGHTS.thesaurus);
    }
  }
  return thesaurus.size;
}

function wordnet(dir: string, edges: EdgeCollector): number {
  let lemmas = 0;
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    const synsets = readWordnetSynsets(fs.readFileSync(path.join(dir, `data.${pos}`), 'utf8'));
    const index = readWordnetIndex(fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8'));
    lemmas += index.size;
    for (const [word, offsets] of index) {
      for (const offset of offsets.slice(0, MAX_SENSES)) {
        for (const synonym of (synsets.get(offset) ?? []).slice(0, MAX_SYNONYMS_PER_SENSE)) edges.add(word, synonym, EDGE_WEIGHTS.wordnet);
      }
    }
  }
  return lemmas;
}

const exists = (...files: string[]) => files.every((f) => fs.existsSync(f));

/** Reads whichever of the packages is installed (about 2 s: a build reads them once). */
export function loadLanguageData(paths: LanguageDataPaths = DEBIAN_PATHS): LanguageData {
  const edges = new EdgeCollector();
  const sources: SourceReport[] = [];
  const read = (name: SourceReport['name'], present: boolean, load: () => number) => {
    sources.push(present ? { name, used: true, entries: load() } : { name, used: false, entries: 0 });
  };
  read('dict-freedict-eng-ind', exists(paths.freedictEngInd.index, paths.freedictEngInd.dict), () => freedict(paths.freedictEngInd, edges));
  read('mythes-id', exists(paths.mythesId), () => mythes(paths.mythesId, edges));
  read('wordnet-base', exists(path.join(paths.wordnetDir, 'data.noun'), path.join(paths.wordnetDir, 'index.noun')), () =>
    wordnet(paths.wordnetDir, edges),
  );
  return { edges: edges.edges, sources };
}

/** One line for the build's output: which data was used. */
export function describeSources(sources: readonly SourceReport[]): string {
  return `language data: ${sources.map((s) => (s.used ? `${s.name} used (${s.entries} entries)` : `${s.name} not installed`)).join(', ')}`;
}
