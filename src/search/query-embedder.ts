/**
 * The query embedder of a snapshot: the built-in model stored in the snapshot, or
 * the configured external service; opened once per snapshot (memo) and checked
 * against the embedder the snapshot records (a mismatch is an error, never a silent
 * comparison of vectors from two spaces).
 *
 * An external service is a dependency that can fail: its query vectors are kept
 * in a bounded LRU (EMBEDDER_QUERY_CACHE entries; queries repeat), each request
 * gives up after EMBEDDER_QUERY_TIMEOUT_MS, and a failure makes the vector side
 * "unavailable" for that query, so search answers from the keyword side and says
 * so in `meta.vectorSide`, instead of failing. After a failure the service is left
 * alone for EMBEDDER_RETRY_AFTER_MS: during an outage queries do not each wait for a timeout.
 */
import type { Embedder } from '../snapshot/embedder.ts';
import { BuiltinEmbedder } from '../snapshot/embedder-builtin.ts';
import { openQueryEmbedder } from '../snapshot/embedder-config.ts';
import { EmbedderServiceError } from '../snapshot/embedder-http.ts';
import { bridgeExpansions, snapshotBridge } from './language-expansion.ts';
import { FILLER_WORDS } from '../text/lexicon/words.ts';
import { CostBoundedLru } from '../query/lru.ts';
import type { RequestWords } from '../query/nl-query.ts';
import type { Snapshot } from '../query/snapshot.ts';

interface OpenedEmbedder {
  embedder: Embedder;
  /** external services only: query vectors by text */
  cache: CostBoundedLru<string, Float32Array> | null;
  /** Date.now() before which the service is not asked (after a failure) */
  pausedUntil: number;
  retryAfterMs: number;
}

function opened(snapshot: Snapshot): Promise<OpenedEmbedder> {
  return snapshot.memo('query-embedder', async () => {
    const config = snapshot.embedder;
    const embedder = await openQueryEmbedder(snapshot.db, { name: snapshot.meta.embedderName, dims: snapshot.meta.embedderDims }, config);
    const entries = config.kind === 'http' ? config.queryCacheEntries : 0;
    const cache = entries > 0 ? new CostBoundedLru<string, Float32Array>(entries) : null;
    return { embedder, cache, pausedUntil: 0, retryAfterMs: config.kind === 'http' ? config.retryAfterMs : 0 };
  });
}

export async function queryEmbedder(snapshot: Snapshot): Promise<Embedder> {
  return (await opened(snapshot)).embedder;
}

export interface QueryVector {
  /** null when no word of the query is known (a zero vector matches nothing) or the service failed */
  vector: Float32Array | null;
  /** "unavailable" when the external embedder failed or timed out: the answer is keyword-only */
  vectorSide: 'available' | 'unavailable';
}

/** The vector of the words a search ranks: the built-in model takes their tokens, an external service their text. */
export async function embedQuery(snapshot: Snapshot, words: RequestWords): Promise<QueryVector> {
  const state = await opened(snapshot);
  const { embedder, cache } = state;
  const { text } = words;
  let vector: Float32Array;
  if (embedder instanceof BuiltinEmbedder) vector = bridgedQueryVector(snapshot, embedder, words.tokens);
  else {
    const kept = cache?.get(text);
    if (kept) vector = kept;
    else {
      if (Date.now() < state.pausedUntil) return { vector: null, vectorSide: 'unavailable' };
      try {
        vector = await embedder.embedQuery(text);
      } catch (error) {
        if (!(error instanceof EmbedderServiceError)) throw error;
        state.pausedUntil = Date.now() + state.retryAfterMs;
        process.emitWarning(`search answers from the keyword side: ${error.message}`);
        return { vector: null, vectorSide: 'unavailable' };
      }
      cache?.set(text, vector, 1);
    }
  }
  return { vector: vector.some((x) => x !== 0) ? vector : null, vectorSide: 'available' };
}

/**
 * The built-in embedder only knows the snapshot's words: the language bridge adds
 * the snapshot's words for the query's other words (an external model brings its
 * own knowledge of language).
 */
function bridgedQueryVector(snapshot: Snapshot, embedder: BuiltinEmbedder, all: readonly string[]): Float32Array {
  // Request filler ("bikin", "cari", "the") names no service: it would only pull the vector off topic.
  const topical = all.filter((w) => !FILLER_WORDS.has(w));
  const words = topical.length > 0 ? topical : all;
  const groups = bridgeExpansions(words, snapshotBridge(snapshot));
  if (groups.length === 0) return embedder.embedTokens(words);
  return embedder.embedQueryExpanded(
    words,
    groups.map((g) => ({ words: words.slice(g.start, g.start + g.length), alternatives: g.alternatives })),
  );
}
