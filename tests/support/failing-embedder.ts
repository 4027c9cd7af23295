import type { Embedder } from '../../src/snapshot/embedder.ts';

/** An external embedder whose service goes away mid-build: the build must fail and clean up. */
export const FAILING_EMBEDDER_MESSAGE = 'embedding service went away';

export function failingEmbedder(): Embedder {
  return {
    name: 'test:failing',
    dims: 8,
    embedDocuments: async () => {
      throw new Error(FAILING_EMBEDDER_MESSAGE);
    },
    embedQuery: async () => new Float32Array(8),
  };
}
