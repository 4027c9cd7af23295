/**
 * NearestCentroid: the nearest of a set of centroids to a vector, for the builder's
 * k-means (vector-partitions.ts) and the frozen lists' assignment (vector-frozen.ts).
 */
import { CHUNK, dotKernel, type DotKernel } from '../vectors/vector-dot.ts';

/**
 * The nearest of `lists` centroids (row-major, `dims` floats each) to a vector, scored
 * by the vector side's WebAssembly kernel (src/vectors/vector-dot.ts). Every vector of
 * a build is assigned this way; in plain JavaScript the 452 centroids of 1,000,000
 * providers cost 75-105 us a vector, more than embedding it (60-80 us).
 */
export class NearestCentroid {
  private readonly kernel: DotKernel;
  private readonly lists: number;
  constructor(centroids: Float32Array, lists: number, dims: number) {
    this.lists = lists;
    this.kernel = dotKernel({ floats: lists, codes: 0, int16s: 0 }, dims);
    for (let l = 0; l < lists; l++) this.kernel.vectors.set(centroids.subarray(l * dims, l * dims + dims), l * this.kernel.stride);
  }

  /** The list of the vector at v[vo .. vo + dims - 1]; the first on a tie. */
  of(v: Float32Array, vo: number): number {
    const { kernel, lists } = this;
    kernel.query.set(v.subarray(vo, vo + kernel.dims));
    let best = 0;
    let bestScore = -Infinity;
    for (let from = 0; from < lists; from += CHUNK) {
      const n = Math.min(CHUNK, lists - from);
      for (let i = 0; i < n; i++) kernel.positions[i] = from + i;
      kernel.score(n);
      for (let i = 0; i < n; i++) {
        if (kernel.scores[i]! > bestScore) {
          bestScore = kernel.scores[i]!;
          best = from + i;
        }
      }
    }
    return best;
  }
}

