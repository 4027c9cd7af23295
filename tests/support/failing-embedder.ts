import type { Embedder } from '../../src/snapshot/embedder.ts';

/** An external embedder whose service goes away mid-build ("embedding service went away"): the build must fail and clean up. */
export function failingEmbedder(): Embedder {
  return {
    name: 'test:failing',
    dims: 8,
    embedDocuments: async () => {
      throw new Error('embedding service went away');
    },
    embedQuery: async () => new Float32Array(8),
  };
}
