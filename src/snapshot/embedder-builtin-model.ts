/** The built-in embedder's stored model: what fit writes, the codec packs and the embedder reads. */
export const BUILTIN_EMBEDDER_NAME = 'builtin-lsa-v1';

/** Weights of the parts of a unit's vector; fixed by fit and stored with the model. */
export interface UnitWeights {
  word: number;
  charGrams: number;
  bigram: number;
  concept: number;
}

export interface BuiltinModel {
  dims: number;
  /** 32-bit feature hashes with a row each (words, bigrams, concepts, char n-grams). */
  featureHashes: Uint32Array;
  /** idf for word/bigram/concept features; n-gram weight for char n-gram features. */
  featureWeights: Float32Array;
  /** featureHashes.length x dims, row-major. */
  rows: Float32Array;
  /** idf given to words the model has no row for (their n-grams still count). */
  unknownWordIdf: number;
  unitWeights: UnitWeights;
  /** Facts about the fit, recorded for humans (documents seen, sample size, options). */
  info: Record<string, number | string>;
}
