/**
 * The WebAssembly dot-product kernel (src/search/vector-dot.ts) against plain JS:
 * bit-identical to four float64 running sums over dimensions d mod 4 (the loop the
 * vector side used before), for chunk-sized and partial calls; dims that are not a
 * multiple of 4 are zero padded and agree to rounding.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK, dotKernel } from '../../src/search/vector-dot.ts';
import { mulberry32 as prng } from '../http/hostile.ts';

function plainDot(v: Float32Array, q: Float32Array): number {
  const sums = [0, 0, 0, 0];
  for (let d = 0; d < v.length; d++) sums[d % 4]! += v[d]! * q[d]!;
  return sums[0]! + sums[1]! + (sums[2]! + sums[3]!);
}

function randomVectors(random: () => number, count: number, dims: number): Float32Array[] {
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, () => random() * 2 - 1));
}

describe('dotKernel', () => {
  it.each([64, 8, 4])('scores %i-dim vectors exactly as four float64 sums', (dims) => {
    const random = prng(dims);
    const count = CHUNK + 37;
    const vectors = randomVectors(random, count, dims);
    const kernel = dotKernel(count, dims);
    vectors.forEach((v, i) => kernel.vectors.set(v, i * kernel.stride));
    const query = randomVectors(random, 1, dims)[0]!;
    kernel.query.set(query);
    // every position once in a full chunk, in a shuffled order, then a partial chunk
    const order = Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
    for (const part of [order.slice(0, CHUNK), order.slice(CHUNK)]) {
      kernel.positions.set(part);
      kernel.score(part.length);
      part.forEach((p, i) => expect(kernel.scores[i]).toBe(plainDot(vectors[p]!, query)));
    }
  });

  it('pads dims that are not a multiple of 4 with zeros', () => {
    const random = prng(5);
    const dims = 6;
    const vectors = randomVectors(random, 3, dims);
    const kernel = dotKernel(3, dims);
    expect(kernel.stride).toBe(8);
    vectors.forEach((v, i) => kernel.vectors.set(v, i * kernel.stride));
    const query = randomVectors(random, 1, dims)[0]!;
    kernel.query.set(query);
    kernel.positions.set([2, 0, 1]);
    kernel.score(3);
    [2, 0, 1].forEach((p, i) => expect(kernel.scores[i]).toBeCloseTo(plainDot(vectors[p]!, query), 12));
  });

  it('scores nothing when asked for no positions', () => {
    const kernel = dotKernel(1, 4);
    kernel.scores[0] = 42;
    kernel.score(0);
    expect(kernel.scores[0]).toBe(42);
  });
});
