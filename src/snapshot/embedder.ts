/**
 * Embedders turn text into vectors. The snapshot records which embedder built it
 * (snapshot_meta.embedder_name / embedder_dims); the query side refuses a mismatch.
 *
 * Two kinds:
 *  - the built-in embedder (src/snapshot/embedder-builtin.ts): learned from the
 *    snapshot's own text at build time, stored inside the snapshot (table
 *    embedder_model), deterministic, no network;
 *  - an external OpenAI-compatible `/v1/embeddings` service (src/snapshot/embedder-http.ts),
 *    chosen with EMBEDDER_URL / EMBEDDER_MODEL.
 */
export interface Embedder {
  /** Stable identifier recorded in the snapshot, e.g. "builtin-lsa-v1" or "openai:nomic-embed-text". */
  readonly name: string;
  readonly dims: number;
  /** Embeds documents at build time (may batch). Vectors are L2-normalized. */
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  /** Embeds one query at run time. Vectors are L2-normalized. */
  embedQuery(text: string): Promise<Float32Array>;
}

/** Raised when a snapshot was built by another embedder than the one configured. */
export class EmbedderMismatchError extends Error {
  constructor(expected: { name: string; dims: number }, actual: { name: string; dims: number }) {
    super(
      `snapshot was built with embedder "${actual.name}" (${actual.dims} dims) but this process is configured for "${expected.name}" (${expected.dims} dims); rebuild the snapshot or change EMBEDDER_URL/EMBEDDER_MODEL`,
    );
    this.name = 'EmbedderMismatchError';
  }
}
