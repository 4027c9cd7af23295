/**
 * The built-in embedder: latent semantic analysis learned from the snapshot's own
 * text at build time. No network, no download, deterministic.
 *
 * API (used by src/snapshot/build.ts and the query side):
 *   fitBuiltinEmbedder(texts, opts?) -> BuiltinEmbedder      (embedder-builtin-fit.ts)
 *   embedder.embedDocumentSync(text) / embedQuerySync(text) -> Float32Array (L2-normalized, `dims` long)
 *   embedder.embedTokens(tokens) / embedQueryExpanded(tokens, groups)  (a request read once: src/search/query-embedder.ts)
 *   embedder.embedDocuments(texts) / embedQuery(text)        (the async Embedder interface)
 *   embedder.serialize(): Buffer, BuiltinEmbedder.deserialize(buf)
 *   saveModel(db, embedder) / loadModel(db) -> BuiltinEmbedder | null   (table embedder_model)
 *   embedder.name === BUILTIN_EMBEDDER_NAME ("builtin-lsa-v1"), embedder.dims (default 64)
 *
 * How a text becomes a vector (the same for documents and queries):
 *   text -> units (words, bigrams, lexicon concepts; embedder-text.ts)
 *   each unit u has weight (1 + ln tf) * idf(u) and a vector E(u):
 *     word:    alpha * row(word) + beta * normalized sum of gramWeight(g) * row(g) over its char 3..5-grams
 *     bigram:  gamma * row(bigram) (gamma = 0 by default: bigrams off);  concept: delta * row(concept)
 *   vector = L2-normalize(sum of weight * E(u))
 * The rows are the truncated SVD's right singular vectors (scaled), so a word the
 * model never saw, or misspelled, still gets a vector from the n-grams it shares
 * with words it did see ("webiste" ~ "website").
 */
import type Database from 'better-sqlite3';
import type { Embedder } from './embedder.ts';
import { isStopword, normalizeTokens } from '../text/tokens.ts';
import { bigramHash, charGramHash, charNgrams, featureHash } from './embedder-text.ts';
import { findConcepts } from '../text/lexicon/concepts.ts';
import { decodeModel, encodeModel } from './embedder-builtin-codec.ts';
import { BUILTIN_EMBEDDER_NAME, type BuiltinModel } from './embedder-builtin-model.ts';
import { FeatureTable } from './embedder-hash-table.ts';

/**
 * How much a known word's bridge alternatives add to it (an unknown word's replace it at full weight).
 * Measured with the first-sense bridge (hybrid nDCG@10): 0.5 -> 0.8 moved the
 * project's set 0.896 -> 0.900 and the independent set's cross-language
 * 0.697 -> 0.703 (its paraphrases 0.463 -> 0.457); 0.65 and 1 measure alike.
 */
const BRIDGE_KNOWN_WEIGHT = 0.8;

// Word vectors are cached: a corpus repeats its words, and a word's vector never changes.
const WORD_CACHE_LIMIT = 200_000;

export class BuiltinEmbedder implements Embedder {
  readonly name = BUILTIN_EMBEDDER_NAME;
  readonly dims: number;
  private readonly featureIndex: FeatureTable;
  private readonly wordCache = new Map<string, Float64Array | null>();

  readonly model: BuiltinModel;
  constructor(model: BuiltinModel) {
    this.model = model;
    this.dims = model.dims;
    this.featureIndex = new FeatureTable(model.featureHashes);
  }

  embedQuerySync(text: string): Float32Array {
    return this.embedText(text);
  }

  /** The vector of a text already tokenized (normalizeTokens or tokenize): embedQuerySync without reading the text again. */
  embedTokens(tokens: readonly string[]): Float32Array {
    return normalizeToFloat32(this.sumOf(tokens, null));
  }

  embedDocumentSync(text: string): Float32Array {
    return this.embedText(text);
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedDocumentSync(t));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedQuerySync(text);
  }

  serialize(): Buffer {
    return encodeModel(this.model);
  }

  static deserialize(buf: Uint8Array): BuiltinEmbedder {
    return new BuiltinEmbedder(decodeModel(buf));
  }

  /**
   * A query's vector with related phrases mixed in (src/search/language-expansion.ts):
   * each group's alternatives, weighted, stand in for a source word the model has
   * no row for ("peretas" -> "hacking"), or are added at BRIDGE_KNOWN_WEIGHT to a
   * word it knows ("kantor" + "office"). A group's alternatives share one word's
   * weight, so a word with four alternatives does not count four times.
   * `tokens` are the query's (tokenized once by the request's reader); an
   * alternative's phrase is written as the index writes it (words joined by spaces).
   */
  embedQueryExpanded(tokens: readonly string[], groups: readonly { words: readonly string[]; alternatives: readonly { phrase: string; weight: number }[] }[]): Float32Array {
    const replaced = new Set<string>();
    const added = new Float64Array(this.dims);
    for (const group of groups) {
      const unknown = group.words.length === 1 && this.featureIndex.get(featureHash('w', group.words[0]!)) < 0;
      const scale = unknown ? 1 : BRIDGE_KNOWN_WEIGHT;
      let total = 0;
      for (const a of group.alternatives) total += a.weight;
      let any = false;
      for (const a of group.alternatives) {
        const vector = this.phraseVector(a.phrase);
        if (vector === null) continue;
        any = true;
        const w = (scale * a.weight) / Math.max(1, total);
        for (let j = 0; j < this.dims; j++) added[j]! += w * vector[j]!;
      }
      if (any && unknown) replaced.add(group.words[0]!);
    }
    const sum = this.sumOf(tokens, replaced);
    for (let j = 0; j < this.dims; j++) sum[j]! += added[j]!;
    return normalizeToFloat32(sum);
  }

  /** The mean of a phrase's word vectors (words only: no concepts, no bigrams), or null when none is known. */
  private phraseVector(phrase: string): Float64Array | null {
    const out = new Float64Array(this.dims);
    let n = 0;
    for (const word of phrase.split(' ')) {
      if (word.length < 2 || isStopword(word)) continue;
      const vector = this.wordVector(word);
      if (vector === null) continue;
      for (let j = 0; j < this.dims; j++) out[j]! += vector[j]!;
      n++;
    }
    if (n === 0) return null;
    for (let j = 0; j < this.dims; j++) out[j]! /= n;
    return out;
  }

  private embedText(text: string): Float32Array {
    return normalizeToFloat32(this.sumOf(normalizeTokens(text), null));
  }

  /**
   * The units of embedder-text.ts's textUnits, counted without building unit objects
   * or bigram strings (this runs once per document at build time and per query);
   * words in `skip` leave no word unit (the query side replaced them).
   */
  private sumOf(tokens: readonly string[], skip: ReadonlySet<string> | null): Float64Array {
    const words = new Map<string, number>();
    const bigrams = new Map<number, number>();
    const concepts = new Map<string, number>();
    const withBigrams = this.model.unitWeights.bigram > 0;
    for (const concept of findConcepts(tokens)) concepts.set(concept, (concepts.get(concept) ?? 0) + 1);
    let previous: string | null = null;
    for (const token of tokens) {
      if (token.length < 2 || isStopword(token)) {
        previous = null;
        continue;
      }
      if (skip === null || !skip.has(token)) words.set(token, (words.get(token) ?? 0) + 1);
      if (previous !== null && withBigrams) {
        const hash = bigramHash(previous, token);
        bigrams.set(hash, (bigrams.get(hash) ?? 0) + 1);
      }
      previous = token;
    }
    const sum = new Float64Array(this.dims);
    const { unitWeights } = this.model;
    for (const [concept, count] of concepts) this.addUnit(sum, featureHash('k', concept), count, unitWeights.concept);
    for (const [hash, count] of bigrams) this.addUnit(sum, hash, count, unitWeights.bigram);
    for (const [word, count] of words) {
      const vector = this.wordVector(word);
      if (vector === null) continue;
      const tf = 1 + Math.log(count);
      for (let j = 0; j < sum.length; j++) sum[j]! += tf * vector[j]!;
    }
    return sum;
  }

  private addUnit(sum: Float64Array, hash: number, count: number, weight: number): void {
    const index = this.featureIndex.get(hash);
    if (index < 0) return;
    this.addRow(sum, index, (1 + Math.log(count)) * this.model.featureWeights[index]! * weight);
  }

  /** idf * (alpha * own row + beta * n-gram part) of a word, or null when nothing of it is known. */
  private wordVector(word: string): Float64Array | null {
    const cached = this.wordCache.get(word);
    if (cached !== undefined) return cached;
    const { unitWeights, featureWeights } = this.model;
    const vector = new Float64Array(this.dims);
    let known = false;
    const own = this.featureIndex.get(featureHash('w', word));
    const idf = own < 0 ? this.model.unknownWordIdf : featureWeights[own]!;
    if (own >= 0) {
      this.addRow(vector, own, idf * unitWeights.word);
      known = true;
    }
    const grams: number[] = [];
    let norm = 0;
    for (const gram of charNgrams(word)) {
      const index = this.featureIndex.get(charGramHash(gram));
      if (index < 0) continue;
      grams.push(index);
      norm += featureWeights[index]! ** 2;
    }
    if (grams.length > 0 && norm > 0) {
      const scale = (idf * unitWeights.charGrams) / Math.sqrt(norm);
      for (const index of grams) this.addRow(vector, index, scale * featureWeights[index]!);
      known = true;
    }
    const result = known ? vector : null;
    if (this.wordCache.size >= WORD_CACHE_LIMIT) this.wordCache.clear();
    this.wordCache.set(word, result);
    return result;
  }

  private addRow(target: Float64Array, index: number, scale: number): void {
    const rows = this.model.rows;
    const offset = index * this.dims;
    for (let j = 0; j < this.dims; j++) target[j]! += scale * rows[offset + j]!;
  }
}

function normalizeToFloat32(sum: Float64Array): Float32Array {
  let norm = 0;
  for (let j = 0; j < sum.length; j++) norm += sum[j]! * sum[j]!;
  const out = new Float32Array(sum.length);
  if (norm === 0) return out; // no known word: the zero vector matches nothing
  const inv = 1 / Math.sqrt(norm);
  for (let j = 0; j < sum.length; j++) out[j] = sum[j]! * inv;
  return out;
}

const MODEL_TABLE_SQL = `CREATE TABLE IF NOT EXISTS embedder_model (key TEXT PRIMARY KEY, value BLOB NOT NULL)`;

/** Stores the model in the snapshot (table embedder_model, key "builtin-lsa-v1"). */
export function saveModel(db: Database.Database, embedder: BuiltinEmbedder): void {
  db.exec(MODEL_TABLE_SQL);
  db.prepare('INSERT OR REPLACE INTO embedder_model (key, value) VALUES (?, ?)').run(embedder.name, embedder.serialize());
}

/** The model stored in the snapshot, or null when the snapshot has none (built by an external embedder). */
export function loadModel(db: Database.Database): BuiltinEmbedder | null {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embedder_model'").get();
  if (!table) return null;
  const row = db.prepare('SELECT value FROM embedder_model WHERE key = ?').get(BUILTIN_EMBEDDER_NAME) as
    | { value: Buffer }
    | undefined;
  return row ? BuiltinEmbedder.deserialize(row.value) : null;
}

