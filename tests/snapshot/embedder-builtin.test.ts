import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEmbedder, loadModel, saveModel } from '../../src/snapshot/embedder-builtin.ts';
import { fitBuiltinEmbedder } from '../../src/snapshot/embedder-builtin-fit.ts';
import { BUILTIN_EMBEDDER_NAME } from '../../src/snapshot/embedder-builtin-model.ts';
import { normalizeTokens } from '../../src/text/tokens.ts';
import { bigramHash, featureHash, textUnits } from '../../src/snapshot/embedder-text.ts';
import { cosine, generatedCorpus, type CorpusDoc } from './embedder-corpus.ts';

const WEB = ['cat-web-development', 'cat-e-commerce', 'cat-wordpress', 'cat-custom-web-apps', 'cat-company-profile-websites'];
const MOBILE = ['cat-mobile-app-development', 'cat-android', 'cat-ios', 'cat-flutter-cross-platform'];
const UNRELATED_TO_WEB_AND_MOBILE = (d: CorpusDoc) =>
  !d.record.categoryIds.some((c) => WEB.includes(c) || MOBILE.includes(c) || c === 'cat-api-integration');

let docs: CorpusDoc[];
let embedder: BuiltinEmbedder;
let vectors: Float32Array[];

const nearest = (query: string, k = 10) => {
  const q = embedder.embedQuerySync(query);
  return vectors
    .map((v, i) => ({ doc: docs[i]!, score: cosine(q, v) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
};
const inCategories = (hits: Array<{ doc: CorpusDoc }>, categories: string[]) =>
  hits.filter((h) => h.doc.record.categoryIds.some((c) => categories.includes(c))).length;
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

beforeAll(async () => {
  docs = await generatedCorpus(600, 11);
  embedder = fitBuiltinEmbedder(docs.map((d) => d.text));
  vectors = docs.map((d) => embedder.embedDocumentSync(d.text));
}, 120_000);

describe('built-in embedder: shape', () => {
  it('has a stable name and dims, and returns L2-normalized float32 vectors', () => {
    expect(embedder.name).toBe(BUILTIN_EMBEDDER_NAME);
    expect(embedder.name).toBe('builtin-lsa-v1');
    expect(embedder.dims).toBe(64);
    for (const v of [...vectors.slice(0, 50), embedder.embedQuerySync('jasa seo jakarta')]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(64);
      expect(Math.abs(cosine(v, v) - 1)).toBeLessThan(1e-5);
    }
  });

  it('gives the zero vector to text with no known word, and honours the dims option', async () => {
    expect([...embedder.embedQuerySync('!!! ???')].every((x) => x === 0)).toBe(true);
    const small = fitBuiltinEmbedder(docs.slice(0, 200).map((d) => d.text), { dims: 32 });
    expect(small.dims).toBe(32);
    expect((await small.embedQuery('toko online')).length).toBe(32);
    expect((await small.embedDocuments(['a', 'toko online'])).map((v) => v.length)).toEqual([32, 32]);
  });

  it('normalizes text the same way for documents and queries (case, diacritics, punctuation)', () => {
    expect(normalizeTokens('Désain UI/UX — Café, E-Commerce!')).toEqual(['desain', 'ui', 'ux', 'cafe', 'e', 'commerce']);
    expect(bytes(embedder.embedQuerySync('TOKO   Online'))).toEqual(bytes(embedder.embedQuerySync('toko online')));
    expect(bytes(embedder.embedQuerySync('désain'))).toEqual(bytes(embedder.embedQuerySync('desain')));
  });

  it('hashes bigrams on the embedding path as the fit does, and adds lexicon concepts', () => {
    expect(bigramHash('toko', 'online')).toBe(featureHash('b', 'toko online'));
    const units = textUnits('Bikin toko online dan aplikasi Android');
    expect(units.filter((u) => u.kind === 'concept').map((u) => u.key).sort()).toEqual(['build', 'ecommerce', 'mobile']);
    expect(units.filter((u) => u.kind === 'bigram').map((u) => u.key)).toEqual(['bikin toko', 'toko online', 'aplikasi android']);
  });
});

describe('built-in embedder: determinism', () => {
  it('fits the same model and the same vectors from the same corpus', () => {
    const again = fitBuiltinEmbedder(docs.map((d) => d.text));
    expect(again.serialize().equals(embedder.serialize())).toBe(true);
    docs.forEach((d, i) => expect(bytes(again.embedDocumentSync(d.text))).toEqual(bytes(vectors[i]!)));
  });

  it('is deterministic when it fits on a sample of a larger corpus', () => {
    const texts = docs.map((d) => d.text);
    const a = fitBuiltinEmbedder(texts, { sampleSize: 150 });
    const b = fitBuiltinEmbedder(texts, { sampleSize: 150 });
    expect(a.model.info.sampleSize).toBe(150);
    expect(a.model.info.documentsSeen).toBe(600);
    expect(a.serialize().equals(b.serialize())).toBe(true);
  });

  it('round-trips through serialize/deserialize and through the snapshot table', () => {
    const queries = ['bikin toko online', 'mobile app developer', 'webiste', 'aplikasi andriod', 'keamanan siber'];
    const restored = BuiltinEmbedder.deserialize(embedder.serialize());
    const file = join(mkdtempSync(join(tmpdir(), 'embedder-model-')), 'snapshot.db');
    const writer = new Database(file);
    expect(loadModel(writer)).toBeNull();
    saveModel(writer, embedder);
    writer.close();
    const reader = new Database(file, { readonly: true, fileMustExist: true });
    const loaded = loadModel(reader);
    reader.close();
    expect(loaded?.name).toBe(BUILTIN_EMBEDDER_NAME);
    for (const q of queries) {
      expect(bytes(restored.embedQuerySync(q))).toEqual(bytes(embedder.embedQuerySync(q)));
      expect(bytes(loaded!.embedQuerySync(q))).toEqual(bytes(embedder.embedQuerySync(q)));
    }
  });

  it('refuses a corrupt model with a clear error', () => {
    const blob = embedder.serialize();
    expect(() => BuiltinEmbedder.deserialize(blob.subarray(0, blob.length - 8))).toThrow(/truncated or corrupt/);
    expect(() => BuiltinEmbedder.deserialize(Buffer.from('not a model'))).toThrow(/bad magic/);
  });
});

describe('built-in embedder: meaning beyond keywords', () => {
  it('places a paraphrase ("bikin toko online") nearest to e-commerce providers', () => {
    const hits = nearest('bikin toko online');
    expect(inCategories(hits, ['cat-e-commerce'])).toBeGreaterThanOrEqual(8);
    const q = embedder.embedQuerySync('bikin toko online');
    const unrelatedBest = Math.max(...docs.map((d, i) => (UNRELATED_TO_WEB_AND_MOBILE(d) ? cosine(q, vectors[i]!) : -1)));
    expect(hits[0]!.score).toBeGreaterThan(unrelatedBest);
  });

  it('places an English query ("mobile app developer") near an Indonesian "aplikasi android" profile', () => {
    const words = (d: CorpusDoc) => new Set(normalizeTokens(d.text));
    const intended = docs.find(
      (d) =>
        d.truth.language === 'id' &&
        d.truth.primaryCategoryId === 'cat-android' &&
        words(d).has('android') &&
        !['mobile', 'app', 'developer'].some((w) => words(d).has(w)),
    );
    expect(intended, 'the corpus has an Indonesian android profile without the query words').toBeDefined();
    const q = embedder.embedQuerySync('mobile app developer');
    const intendedScore = cosine(q, embedder.embedDocumentSync(intended!.text));
    const unrelated = docs.filter(UNRELATED_TO_WEB_AND_MOBILE).map((d) => cosine(q, vectors[docs.indexOf(d)]!));
    const beaten = unrelated.filter((s) => s < intendedScore).length / unrelated.length;
    expect(beaten).toBeGreaterThan(0.95);
    expect(intendedScore).toBeGreaterThan(cosine(q, embedder.embedQuerySync('konsultan pajak dan akuntansi untuk restoran')));
    expect(inCategories(nearest('mobile app developer'), MOBILE)).toBeGreaterThanOrEqual(8);
  });

  it('tolerates typos through character n-grams ("webiste", "aplikasi andriod")', () => {
    expect(inCategories(nearest('webiste'), WEB)).toBeGreaterThanOrEqual(8);
    expect(inCategories(nearest('aplikasi andriod'), MOBILE)).toBeGreaterThanOrEqual(8);
    const typo = embedder.embedQuerySync('aplikasi andriod');
    expect(cosine(typo, embedder.embedQuerySync('aplikasi android'))).toBeGreaterThan(0.8);
    expect(cosine(typo, embedder.embedQuerySync('aplikasi android'))).toBeGreaterThan(
      cosine(typo, embedder.embedQuerySync('audit keamanan siber')),
    );
    const webiste = embedder.embedQuerySync('webiste');
    expect(cosine(webiste, embedder.embedQuerySync('website'))).toBeGreaterThan(
      cosine(webiste, embedder.embedQuerySync('iklan media sosial')),
    );
  });

  it('measures query embedding time (reported, not asserted)', () => {
    const queries = ['bikin toko online murah', 'mobile app developer jakarta', 'webiste', 'jasa seo', 'keamanan siber bank'];
    for (let i = 0; i < 200; i++) embedder.embedQuerySync(`${queries[i % queries.length]} ${i}`);
    const start = performance.now();
    for (let i = 0; i < 1000; i++) embedder.embedQuerySync(`${queries[i % queries.length]} q${i}`);
    const perQueryUs = ((performance.now() - start) / 1000) * 1000;
    console.log(`built-in embedder: ${perQueryUs.toFixed(1)} us per query (mean of 1,000, each with an unseen word)`);
    expect(perQueryUs).toBeGreaterThan(0);
  });
});
