/**
 * The query embedder of a snapshot: the built-in model stored in the snapshot, or
 * the configured external service; opened once per snapshot (memo) and checked
 * against the embedder the snapshot records (a mismatch is an error, never a silent
 * comparison of vectors from two spaces).
 */
import type { Embedder } from '../snapshot/embedder.ts';
import { BuiltinEmbedder } from '../snapshot/embedder-builtin.ts';
import { openQueryEmbedder } from '../snapshot/embedder-config.ts';
import { normalizeTokens } from '../snapshot/embedder-text.ts';
import { bridgeExpansions, snapshotBridge } from './language-expansion.ts';
import type { Snapshot } from './snapshot.ts';


export function queryEmbedder(snapshot: Snapshot): Promise<Embedder> {
  return snapshot.memo('query-embedder', () =>
    openQueryEmbedder(snapshot.db, { name: snapshot.meta.embedderName, dims: snapshot.meta.embedderDims }),
  );
}

/** The query's vector, or null when no word of it is known (a zero vector matches nothing). */
export async function embedQuery(snapshot: Snapshot, text: string): Promise<Float32Array | null> {
  const embedder = await queryEmbedder(snapshot);
  const vector = embedder instanceof BuiltinEmbedder ? bridgedQueryVector(snapshot, embedder, text) : await embedder.embedQuery(text);
  return vector.some((x) => x !== 0) ? vector : null;
}

/**
 * The built-in embedder only knows the snapshot's words: the language bridge adds
 * the snapshot's words for the query's other words (an external model brings its
 * own knowledge of language).
 */
function bridgedQueryVector(snapshot: Snapshot, embedder: BuiltinEmbedder, text: string): Float32Array {
  const words = normalizeTokens(text);
  const groups = bridgeExpansions(words, snapshotBridge(snapshot));
  if (groups.length === 0) return embedder.embedQuerySync(text);
  return embedder.embedQueryExpanded(
    text,
    groups.map((g) => ({ words: words.slice(g.start, g.start + g.length), alternatives: g.alternatives })),
  );
}
