/**
 * The query embedder of a snapshot: the built-in model stored in the snapshot, or
 * the configured external service; opened once per snapshot (memo) and checked
 * against the embedder the snapshot records (a mismatch is an error, never a silent
 * comparison of vectors from two spaces).
 */
import type { Embedder } from '../snapshot/embedder.ts';
import { openQueryEmbedder } from '../snapshot/embedder-config.ts';
import type { Snapshot } from './snapshot.ts';

type QueryEmbedder = Embedder & { embedQuerySync?: (text: string) => Float32Array };

export function queryEmbedder(snapshot: Snapshot): Promise<QueryEmbedder> {
  return snapshot.memo('query-embedder', () =>
    openQueryEmbedder(snapshot.db, { name: snapshot.meta.embedderName, dims: snapshot.meta.embedderDims }),
  );
}

/** The query's vector, or null when no word of it is known (a zero vector matches nothing). */
export async function embedQuery(snapshot: Snapshot, text: string): Promise<Float32Array | null> {
  const embedder = await queryEmbedder(snapshot);
  const vector = embedder.embedQuerySync ? embedder.embedQuerySync(text) : await embedder.embedQuery(text);
  return vector.some((x) => x !== 0) ? vector : null;
}
