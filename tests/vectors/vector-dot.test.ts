/**
 * The WebAssembly dot-product kernel (src/vectors/vector-dot.ts) against plain JS:
 * bit-identical to the same float32 steps replayed with Math.fround (two sums of
 * four lanes, added lane for lane, then (l0 + l1) + (l2 + l3)), for chunk-sized and
 * partial calls and for dims that are not a multiple of 8 (zero padded); and within
 * float32 rounding of the float64 dot product. The int8 code kernel against plain
 * integer arithmetic, exactly, at the extremes of both ranges. The int16 kernel
 * against the same float64 steps replayed in JS (dimension pairs alternating between
 * two sums of two lanes), rows packed dims apart, odd dims included.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK, dotKernel } from '../../src/vectors/vector-dot.ts';
import { mulberry32 as prng } from '../http/hostile.ts';

const f = Math.fround;

function float32Dot(v: Float32Array, q: Float32Array): number {
  const a = [0, 0, 0, 0];
  const b = [0, 0, 0, 0];
  for (let d = 0; d < v.length; d++) {
    const sums = d % 8 < 4 ? a : b;
    sums[d % 4] = f(sums[d % 4]! + f(v[d]! * q[d]!));
  }
  const l = a.map((x, j) => f(x + b[j]!));
  return f(f(l[0]! + l[1]!) + f(l[2]! + l[3]!));
}

/** The int16 kernel's float64 steps: pair p = dims 2p, 2p + 1 into sum p mod 2, lane d mod 2; then (a0 + b0) + (a1 + b1). */
function int16Dot(v: Int16Array, q: Float64Array): number {
  const sums = [
    [0, 0],
    [0, 0],
  ];
  for (let d = 0; d < v.length; d++) sums[(d >> 1) % 2]![d % 2]! += v[d]! * q[d]!;
  return sums[0]![0]! + sums[1]![0]! + (sums[0]![1]! + sums[1]![1]!);
}

function exactDot(v: Float32Array, q: Float32Array): number {
  let s = 0;
  for (let d = 0; d < v.length; d++) s += v[d]! * q[d]!;
  return s;
}

function randomVectors(random: () => number, count: number, dims: number): Float32Array[] {
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, () => random() * 2 - 1));
}

describe('dotKernel', () => {
  it.each([64, 16, 8])('scores %i-dim vectors exactly as the float32 steps', (dims) => {
    const random = prng(dims);
    const count = CHUNK + 37;
    const vectors = randomVectors(random, count, dims);
    const kernel = dotKernel({ floats: count, codes: 0, int16s: 0 }, dims);
    vectors.forEach((v, i) => kernel.vectors.set(v, i * kernel.stride));
    const query = randomVectors(random, 1, dims)[0]!;
    kernel.query.set(query);
    // every position once in a full chunk, in a shuffled order, then a partial chunk
    const order = Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
    for (const part of [order.slice(0, CHUNK), order.slice(CHUNK)]) {
      kernel.positions.set(part);
      kernel.score(part.length);
      part.forEach((p, i) => {
        expect(kernel.scores[i]).toBe(float32Dot(vectors[p]!, query));
        expect(Math.abs(kernel.scores[i]! - exactDot(vectors[p]!, query))).toBeLessThan(1e-5);
      });
    }
  });

  it('pads dims that are not a multiple of 8 with zeros', () => {
    const random = prng(5);
    const dims = 6;
    const vectors = randomVectors(random, 3, dims);
    const kernel = dotKernel({ floats: 3, codes: 0, int16s: 0 }, dims);
    expect(kernel.stride).toBe(8);
    vectors.forEach((v, i) => kernel.vectors.set(v, i * kernel.stride));
    const query = randomVectors(random, 1, dims)[0]!;
    kernel.query.set(query);
    kernel.positions.set([2, 0, 1]);
    kernel.score(3);
    [2, 0, 1].forEach((p, i) => expect(kernel.scores[i]).toBe(float32Dot(vectors[p]!, query)));
  });

  it('scores nothing when asked for no positions', () => {
    const kernel = dotKernel({ floats: 1, codes: 0, int16s: 0 }, 4);
    kernel.scores[0] = 42;
    kernel.score(0);
    expect(kernel.scores[0]).toBe(42);
  });

  it.each([64, 16, 6, 100])('scores %i-dim int8 codes against the int16 query exactly', (dims) => {
    const random = prng(dims + 1);
    const count = CHUNK + 11;
    const kernel = dotKernel({ floats: 0, codes: count, int16s: 0 }, dims);
    expect(kernel.codeStride % 16).toBe(0);
    const codes = Array.from({ length: count }, (_, i) =>
      // the first vector holds the extremes: +-127 against +-32767 in every dimension
      Int8Array.from({ length: dims }, (_, d) => (i === 0 ? (d % 2 ? 127 : -127) : Math.round(random() * 254) - 127)),
    );
    codes.forEach((c, i) => kernel.codes.set(c, i * kernel.codeStride));
    const query = Int16Array.from({ length: dims }, (_, d) => (d % 2 ? 32_767 : -32_767));
    for (const q of [query, Int16Array.from({ length: dims }, () => Math.round(random() * 65_534) - 32_767)]) {
      kernel.query16.set(q);
      const order = Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
      const exact = (p: number) => codes[p]!.reduce((s, c, d) => s + c * q[d]!, 0);
      for (const part of [order.slice(0, CHUNK), order.slice(CHUNK)]) {
        kernel.positions.set(part);
        expect(kernel.scoreCodes(part.length, -0x80000000)).toBe(part.length);
        part.forEach((p, i) => expect(kernel.codeScores[i]).toBe(exact(p)));
      }
      // with a cut: the positions scoring at least it, in their order, and no others
      const cut = exact(order[CHUNK >> 1]!);
      const part = order.slice(0, CHUNK);
      const kept = part.filter((p) => exact(p) >= cut);
      kernel.positions.set(part);
      expect(kernel.scoreCodes(part.length, cut)).toBe(kept.length);
      expect(Array.from(kernel.positions.subarray(0, kept.length))).toEqual(kept);
      expect(Array.from(kernel.codeScores.subarray(0, kept.length))).toEqual(kept.map(exact));
      // a run of positions, with and without the cut
      for (const [first, n, least] of [[0, CHUNK, -0x80000000], [7, CHUNK, cut], [CHUNK, count - CHUNK, cut]] as const) {
        const run = Array.from({ length: n }, (_, i) => first + i).filter((p) => exact(p) >= least);
        expect(kernel.scoreCodeRange(first, n, least)).toBe(run.length);
        expect(Array.from(kernel.positions.subarray(0, run.length))).toEqual(run);
        expect(Array.from(kernel.codeScores.subarray(0, run.length))).toEqual(run.map(exact));
      }
    }
    kernel.query16.set(query);
    kernel.positions.set([0]);
    expect(kernel.scoreCodes(1, 127 * 32_767 * dims)).toBe(1);
    expect(kernel.codeScores[0]).toBe(127 * 32_767 * dims);
    expect(kernel.scoreCodeRange(0, 1, 127 * 32_767 * dims + 1)).toBe(0);
    expect(kernel.scoreCodeRange(0, 0, -0x80000000)).toBe(0);
  });

  it.each([64, 16, 7, 100])('scores %i-dim int16 rows against the float64 query as its steps say', (dims) => {
    const random = prng(dims + 2);
    const count = CHUNK + 5;
    const kernel = dotKernel({ floats: 0, codes: 0, int16s: count }, dims);
    const rows = Array.from({ length: count }, (_, i) =>
      Int16Array.from({ length: dims }, (_, d) => (i === count - 1 ? (d % 2 ? 32_767 : -32_767) : Math.round(random() * 65_534) - 32_767)),
    );
    rows.forEach((r, i) => kernel.int16s.set(r, i * dims));
    const query = Float64Array.from({ length: dims }, () => (random() * 2 - 1) / 32_767);
    kernel.query64.fill(0);
    kernel.query64.set(query);
    const order = Array.from({ length: count }, (_, i) => i).sort(() => random() - 0.5);
    for (const part of [order.slice(0, CHUNK), order.slice(CHUNK), [count - 1]]) {
      kernel.positions.set(part);
      kernel.scoreInt16(part.length);
      part.forEach((p, i) => expect(kernel.scores[i]).toBe(int16Dot(rows[p]!, query)));
    }
    // within float64 rounding of the plain sum
    expect(Math.abs(kernel.scores[0]! - rows[count - 1]!.reduce((s, v, d) => s + v * query[d]!, 0))).toBeLessThan(1e-12);
  });
});
