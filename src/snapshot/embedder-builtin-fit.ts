/**
 * Fitting the built-in embedder (see embedder-builtin.ts for the model itself).
 *
 * 1. A deterministic sample (seeded reservoir) of at most `sampleSize` texts: the
 *    SVD learns the corpus's topics from it; all documents are then embedded with
 *    embedDocumentSync, streaming, so memory does not grow with the corpus.
 * 2. Units seen in at least `minDf` sampled documents get a row (lexicon concepts
 *    always do); each word also spreads over its character 3..5-grams.
 * 3. X = A * F (documents x units x features) is reduced by a randomized truncated
 *    SVD (embedder-svd.ts); rows = V * sigma^(power - 1), so a training document's
 *    vector is U * sigma^power.
 */
import { BuiltinEmbedder } from './embedder-builtin.ts';
import type { BuiltinModel, UnitWeights } from './embedder-builtin-model.ts';
import { charGramHash, charNgrams, textUnits, unitHash } from './embedder-text.ts';
import { randomizedSvd, type Csr } from './embedder-svd.ts';

export interface FitOptions {
  /** Vector length. 64 by default: 32 and 128 measured worse (docs/search.md, "Why 64 dimensions"). */
  dims?: number;
  /** Documents the SVD is fitted on (a seeded reservoir sample of the input). */
  sampleSize?: number;
  seed?: number;
  /** Units seen in fewer sampled documents get no row of their own. */
  minDf?: number;
  /**
   * Bigrams need more: by default 0.1% of the sample (20 of 20,000). Rare bigrams were
   * ~88% of all units and a third of the fit time, for no measurable gain; frequent
   * ones ("aplikasi android", "web app") help English-Indonesian paraphrases.
   * `unitWeights: { bigram: 0 }` turns bigrams off altogether.
   */
  bigramMinDf?: number;
  /** Cap on units with a row (most frequent kept), which bounds the model's size. */
  maxUnits?: number;
  powerIterations?: number;
  oversample?: number;
  /** 1: classic LSA (U * sigma); 0: whitened (U); in between damps the dominant topics. */
  singularPower?: number;
  unitWeights?: Partial<UnitWeights>;
}

const DEFAULTS = {
  dims: 64,
  sampleSize: 20_000,
  seed: 20_260_101,
  minDf: 2,
  maxUnits: 60_000,
  powerIterations: 1,
  oversample: 8,
  singularPower: 0.5,
};
const DEFAULT_UNIT_WEIGHTS: UnitWeights = { word: 1, charGrams: 0.6, bigram: 0.5, concept: 1.2 };

/** Seeded reservoir sample (algorithm R): the same input order and seed give the same sample. */
function reservoirSample(texts: Iterable<string>, size: number, seed: number): { sample: string[]; seen: number } {
  const sample: string[] = [];
  let state = seed >>> 0 || 1;
  const nextInt = (bound: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * bound);
  };
  let seen = 0;
  for (const text of texts) {
    seen++;
    if (sample.length < size) sample.push(text);
    else {
      const j = nextInt(seen);
      if (j < size) sample[j] = text;
    }
  }
  return { sample, seen };
}

interface UnitStat {
  id: string;
  kind: 'word' | 'bigram' | 'concept';
  key: string;
  hash: number;
  df: number;
}

type FitSettings = typeof DEFAULTS;
type Idf = (df: number) => number;

/** The feature space: each kept unit's own hash, then the char n-grams of kept words. */
interface Features {
  /** hash -> feature index */
  indexOf: Map<number, number>;
  hashes: number[];
  weights: number[];
  /** a kept word's n-gram feature indexes */
  wordGrams: Map<UnitStat, number[]>;
}

export function fitBuiltinEmbedder(texts: Iterable<string>, options: FitOptions = {}): BuiltinEmbedder {
  const opts = { ...DEFAULTS, ...options };
  const weights: UnitWeights = { ...DEFAULT_UNIT_WEIGHTS, ...options.unitWeights };
  const { sample, seen } = reservoirSample(texts, opts.sampleSize, opts.seed);
  const { stats, docUnits } = countUnits(sample);
  const docs = sample.length;
  const idf: Idf = (df) => Math.log((1 + docs) / (1 + df)) + 1;
  const bigramMinDf = options.bigramMinDf ?? Math.max(opts.minDf, Math.ceil(docs * 0.001));
  const kept = keptUnits(stats, opts, weights, bigramMinDf);
  const features = featureSpace(kept, idf);
  const f = unitFeatureMatrix(kept, features, weights);
  const a = documentUnitMatrix(docUnits, kept, idf);
  docUnits.length = 0;
  const rows = featureRows(a, f, features.hashes.length, opts);
  const model: BuiltinModel = {
    dims: opts.dims,
    featureHashes: Uint32Array.from(features.hashes),
    featureWeights: Float32Array.from(features.weights),
    rows,
    unknownWordIdf: idf(1),
    unitWeights: weights,
    info: {
      documentsSeen: seen,
      sampleSize: docs,
      units: kept.length,
      features: features.hashes.length,
      minDf: opts.minDf,
      bigramMinDf,
      singularPower: opts.singularPower,
      powerIterations: opts.powerIterations,
      seed: opts.seed,
    },
  };
  return new BuiltinEmbedder(model);
}

/** Units per sampled document, and document frequencies. */
function countUnits(sample: readonly string[]): { stats: Map<string, UnitStat>; docUnits: Array<Array<[UnitStat, number]>> } {
  const stats = new Map<string, UnitStat>();
  const docUnits: Array<Array<[UnitStat, number]>> = [];
  for (const text of sample) {
    const units: Array<[UnitStat, number]> = [];
    for (const unit of textUnits(text)) {
      const id = unit.kind[0] + ':' + unit.key;
      let stat = stats.get(id);
      if (!stat) {
        stat = { id, kind: unit.kind, key: unit.key, hash: unitHash(unit), df: 0 };
        stats.set(id, stat);
      }
      stat.df++;
      units.push([stat, unit.count]);
    }
    docUnits.push(units);
  }
  return { stats, docUnits };
}

/** The units that get a row: concepts always, words and bigrams seen often enough; most frequent first, at most maxUnits. */
function keptUnits(stats: Map<string, UnitStat>, opts: FitSettings, weights: UnitWeights, bigramMinDf: number): UnitStat[] {
  return [...stats.values()]
    .filter((s) =>
      s.kind === 'concept' ? true : s.kind === 'word' ? s.df >= opts.minDf : weights.bigram > 0 && s.df >= bigramMinDf,
    )
    .sort((a, b) => b.df - a.df || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, opts.maxUnits);
}

/** Features: each kept unit's own hash, then the char n-grams of kept words. */
function featureSpace(kept: readonly UnitStat[], idf: Idf): Features {
  const featureOf = new Map<number, number>();
  const featureHashes: number[] = [];
  const featureWeights: number[] = [];
  const feature = (hash: number, weight: number) => {
    let index = featureOf.get(hash);
    if (index === undefined) {
      index = featureHashes.length;
      featureOf.set(hash, index);
      featureHashes.push(hash);
      featureWeights.push(weight);
    }
    return index;
  };
  for (const s of kept) feature(s.hash, idf(s.df));
  const wordGrams = new Map<UnitStat, number[]>();
  const wordsWithGram = new Map<number, number>(); // feature index -> number of kept words containing it
  for (const s of kept) {
    if (s.kind !== 'word') continue;
    const grams = [...new Set(charNgrams(s.key).map((g) => feature(charGramHash(g), 0)))];
    wordGrams.set(s, grams);
    for (const g of grams) wordsWithGram.set(g, (wordsWithGram.get(g) ?? 0) + 1);
  }
  // An n-gram shared by many words says little about any of them.
  for (const [g, count] of wordsWithGram) featureWeights[g] = Math.log(1 + wordGrams.size / count);
  return { indexOf: featureOf, hashes: featureHashes, weights: featureWeights, wordGrams };
}

/** F: units x features. */
function unitFeatureMatrix(kept: readonly UnitStat[], features: Features, weights: UnitWeights): Csr {
  const { indexOf: featureOf, weights: featureWeights, wordGrams } = features;
  return buildCsr(kept.length, features.hashes.length, (row, push) => {
    const s = kept[row]!;
    if (s.kind !== 'word') {
      push(featureOf.get(s.hash)!, s.kind === 'bigram' ? weights.bigram : weights.concept);
      return;
    }
    push(featureOf.get(s.hash)!, weights.word);
    const grams = wordGrams.get(s)!;
    let norm = 0;
    for (const g of grams) norm += featureWeights[g]! ** 2;
    const scale = norm > 0 ? weights.charGrams / Math.sqrt(norm) : 0;
    for (const g of grams) push(g, scale * featureWeights[g]!);
  });
}

/** A: documents x units, sublinear tf * idf, rows L2-normalized so long texts do not dominate. */
function documentUnitMatrix(docUnits: ReadonlyArray<Array<[UnitStat, number]>>, kept: readonly UnitStat[], idf: Idf): Csr {
  const unitIndex = new Map<UnitStat, number>(kept.map((s, i) => [s, i]));
  return buildCsr(docUnits.length, kept.length, (row, push) => {
    const entries: Array<[number, number]> = [];
    let norm = 0;
    for (const [stat, count] of docUnits[row]!) {
      const index = unitIndex.get(stat);
      if (index === undefined) continue;
      const w = (1 + Math.log(count)) * idf(stat.df);
      entries.push([index, w]);
      norm += w * w;
    }
    for (const [index, w] of entries) push(index, w / Math.sqrt(norm));
  });
}

/** X = A * F reduced by the randomized SVD; rows = V * sigma^(power - 1). */
function featureRows(a: Csr, f: Csr, featureCount: number, opts: FitSettings): Float32Array {
  const svd = randomizedSvd(a, f, {
    k: opts.dims,
    oversample: opts.oversample,
    powerIterations: opts.powerIterations,
    seed: opts.seed,
  });
  const rows = new Float32Array(featureCount * opts.dims);
  for (let j = 0; j < opts.dims; j++) {
    const sigma = svd.singularValues[j]!;
    const scale = sigma > 0 ? sigma ** (opts.singularPower - 1) : 0;
    for (let i = 0; i < featureCount; i++) rows[i * opts.dims + j] = svd.v.data[i * opts.dims + j]! * scale;
  }
  return rows;
}

function buildCsr(rows: number, cols: number, fill: (row: number, push: (col: number, value: number) => void) => void): Csr {
  const rowStart = new Int32Array(rows + 1);
  const colIndex: number[] = [];
  const values: number[] = [];
  const push = (col: number, value: number) => {
    colIndex.push(col);
    values.push(value);
  };
  for (let r = 0; r < rows; r++) {
    fill(r, push);
    rowStart[r + 1] = colIndex.length;
  }
  return { rows, cols, rowStart, colIndex: Int32Array.from(colIndex), values: Float32Array.from(values) };
}
