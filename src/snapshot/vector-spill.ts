/**
 * Second lists for the vectors an IVF probe most often misses (spilling, after
 * SOAR: Sun et al., "SOAR: Improved Indexing for Approximate Nearest Neighbor
 * Search", NeurIPS 2023).
 *
 * A probe ranks lists by q . c, but a vector's score is q . c + q . r, with r = x - c
 * its residual: the vectors found late are those whose residual points the query's
 * way. A second copy in another list helps most when that list's residual
 * r' = x - c' points elsewhere, so the second list is the one of least
 *   |x - c'|^2 + LAMBDA (r . r')^2 / |r|^2
 * (the nearest list, with the part of r' along r weighed LAMBDA times more).
 * Only the SPILL_FRACTION of vectors with the largest residuals get a second list:
 * the rest sit near their centroid, where the centroid's score already tells.
 *
 * Measured on the benchmark's long-tail queries (recall@50 of the exact nearest in
 * the lists the centroids' order visits, the same number of vectors scanned,
 * second copies counted): 1,000,000 providers 0.798 -> 0.856 (0.855 with half of the
 * vectors); 100,000, with half, 0.849 -> 0.912 (35%, every fine list a candidate: 0.912
 * against 0.919 with half; a second list for every vector, LAMBDA 4: 0.911); LAMBDA
 * 4 / 16 within 0.004 of 8. The second list is sought among the fine lists of the
 * CANDIDATE_COARSE coarse lists of least loss (the same loss, with the coarse
 * centroids): 0.912 where every fine list gives 0.919, for about a tenth of the scoring.
 */
import { CHUNK, dotKernel, type DotKernel } from '../vectors/vector-dot.ts';

export const SPILL_FRACTION = 0.35;
const LAMBDA = 8;
const CANDIDATE_COARSE = 8;

/** The two levels of lists, as the builder made them. */
export interface ListLevels {
  coarseLists: number;
  /** coarse centroids, row-major, dims floats each */
  coarseCentroids: Float32Array;
  fineLists: number;
  /** fine centroids, row-major, dims floats each */
  fineCentroids: Float32Array;
  /** coarse list c's fine lists are fineStart[c] .. fineStart[c + 1] - 1 */
  fineStart: Int32Array;
  /** the fine list of each vector, in input order */
  fineOf: Int32Array;
}

/** A kernel holding the given centroids, with the squared norm of each. */
function centroidKernel(centroids: Float32Array, lists: number, dims: number): { kernel: DotKernel; norms: Float64Array } {
  const kernel = dotKernel({ floats: lists, codes: 0, int16s: 0 }, dims);
  const norms = new Float64Array(lists);
  for (let l = 0; l < lists; l++) {
    const row = centroids.subarray(l * dims, l * dims + dims);
    kernel.vectors.set(row, l * kernel.stride);
    for (const x of row) norms[l]! += x * x;
  }
  return { kernel, norms };
}

/** Scores of the centroids `lists[from .. from + n - 1]` against the kernel's query, into out[from ..]. */
function scoreLists(kernel: DotKernel, lists: Int32Array, count: number, out: Float64Array): void {
  for (let from = 0; from < count; from += CHUNK) {
    const n = Math.min(CHUNK, count - from);
    kernel.positions.set(lists.subarray(from, from + n));
    kernel.score(n);
    out.set(kernel.scores.subarray(0, n), from);
  }
}

/**
 * Each vector's second fine list, -1 for none: the SPILL_FRACTION of vectors farthest
 * from their fine centroid get one, never their own; with `frozenFrom` (vector-frozen.ts),
 * those at least that far. `spillFrom`: the residual norm from which one did.
 */
export function spillLists(data: Float32Array, count: number, dims: number, levels: ListLevels, frozenFrom?: number): { second: Int32Array; spillFrom: number } {
  const second = new Int32Array(count).fill(-1);
  const { coarseLists, fineStart, fineOf } = levels;
  if (levels.fineLists < 2 || count === 0) return { second, spillFrom: frozenFrom ?? Infinity };
  const r = new Float32Array(dims);
  /** r = the vector's residual to its fine centroid; |r|^2 */
  const residualOf = (i: number): number => {
    const c = fineOf[i]! * dims;
    let n = 0;
    for (let d = 0; d < dims; d++) {
      r[d] = data[i * dims + d]! - levels.fineCentroids[c + d]!;
      n += r[d]! * r[d]!;
    }
    return n;
  };
  const norms = new Float64Array(count);
  for (let i = 0; i < count; i++) norms[i] = residualOf(i);
  const spillFrom = frozenFrom ?? Float64Array.from(norms).sort()[Math.min(count - 1, Math.floor((1 - SPILL_FRACTION) * count))]!;

  const coarse = centroidKernel(levels.coarseCentroids, coarseLists, dims);
  const fine = centroidKernel(levels.fineCentroids, levels.fineLists, dims);
  const allCoarse = Int32Array.from({ length: coarseLists }, (_, c) => c);
  const xc = new Float64Array(Math.max(coarseLists, levels.fineLists));
  const rc = new Float64Array(xc.length);
  // r . c = x . c - f . c for the vector's fine centroid f: each fine centroid's coarse scores once,
  // (float32, as the kernel scores), instead of the residual's for every vector: a third of the scoring
  const fineByCoarse = new Float32Array(levels.fineLists * coarseLists);
  for (let f = 0; f < levels.fineLists; f++) {
    coarse.kernel.query.set(levels.fineCentroids.subarray(f * dims, f * dims + dims));
    scoreLists(coarse.kernel, allCoarse, coarseLists, xc);
    fineByCoarse.set(xc.subarray(0, coarseLists), f * coarseLists);
  }
  const candidates = new Int32Array(levels.fineLists);
  const best = new Int32Array(CANDIDATE_COARSE);
  const bestLoss = new Float64Array(CANDIDATE_COARSE);
  for (let i = 0; i < count; i++) {
    if (norms[i]! < spillFrom || norms[i] === 0) continue;
    const rr = residualOf(i);
    const x = data.subarray(i * dims, i * dims + dims);
    let rx = 0;
    for (let d = 0; d < dims; d++) rx += r[d]! * x[d]!;
    // loss of centroid c: |x|^2 - 2 x.c + |c|^2 + LAMBDA (r.x - r.c)^2 / |r|^2 (|x| = 1)
    const loss = (dot: number, rDot: number, norm: number) => 1 - 2 * dot + norm + (LAMBDA * (rx - rDot) ** 2) / rr;

    coarse.kernel.query.set(x);
    scoreLists(coarse.kernel, allCoarse, coarseLists, xc);
    const kept = Math.min(CANDIDATE_COARSE, coarseLists);
    bestLoss.fill(Infinity);
    const own = fineOf[i]! * coarseLists;
    for (let c = 0; c < coarseLists; c++) {
      const l = loss(xc[c]!, xc[c]! - fineByCoarse[own + c]!, coarse.norms[c]!);
      if (l >= bestLoss[kept - 1]!) continue;
      let at = kept - 1;
      for (; at > 0 && bestLoss[at - 1]! > l; at--) {
        bestLoss[at] = bestLoss[at - 1]!;
        best[at] = best[at - 1]!;
      }
      bestLoss[at] = l;
      best[at] = c;
    }

    let n = 0;
    for (let b = 0; b < kept; b++) for (let l = fineStart[best[b]!]!; l < fineStart[best[b]! + 1]!; l++) if (l !== fineOf[i]) candidates[n++] = l;
    fine.kernel.query.set(x);
    scoreLists(fine.kernel, candidates, n, xc);
    fine.kernel.query.set(r);
    scoreLists(fine.kernel, candidates, n, rc);
    let leastLoss = Infinity;
    for (let j = 0; j < n; j++) {
      const l = loss(xc[j]!, rc[j]!, fine.norms[candidates[j]!]!);
      if (l < leastLoss) {
        leastLoss = l;
        second[i] = candidates[j]!;
      }
    }
  }
  return { second, spillFrom };
}
