/**
 * The vector side's dot products in WebAssembly SIMD: the IVF scan was a quarter
 * of a search's CPU in plain JS (a CPU profile of the 100k server under load).
 *
 * float32 arithmetic, four lanes at a time: two running sums of four lanes, one
 * over dimensions d with d mod 8 < 4 and one over the rest, added lane for lane,
 * then the lanes as (l0 + l1) + (l2 + l3), each step rounded to float32 (the test
 * replays it with Math.fround). The vectors are float32 and L2-normalized, so the
 * rounding is about 1e-7 of a score; only candidates that close swap ranks.
 * Widening every product to float64 first (the kernel until 2026-11-25) cost three
 * times the instructions per dimension for no measured change in quality.
 * Vectors are stored `stride` floats apart (dims rounded up to a multiple of 8,
 * zero padded: a padded product adds exactly 0).
 *
 * One call scores a chunk of positions, so the JS-to-Wasm call is paid per chunk,
 * not per vector: score(n) sets scores[i] = vector(positions[i]) . query, i < n.
 */

/** Positions scored per call. */
export const CHUNK = 1024;

export interface DotKernel {
  dims: number;
  /** floats from one vector to the next: dims rounded up to a multiple of 8 */
  stride: number;
  /** the Wasm memory of the vectors and of this thread's scratch */
  memory: WebAssembly.Memory;
  /** count x stride, in Wasm memory; fill before scoring */
  vectors: Float32Array;
  /** stride floats; the query of the next calls */
  query: Float32Array;
  positions: Int32Array;
  scores: Float64Array;
  score(n: number): void;
}

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

// Parameters 0-5: vectorsAt, positionsAt, n, queryAt, stride bytes, scoresAt (byte addresses).
// Locals 6-8 (i32): end of positions, the vector's address, byte offset d; 9-10 (v128): the two sums a, b.
const SIMD = 0xfd;
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
/** sum += vector[d + offset .. +3] * query[d + offset .. +3] (offset in bytes, under 128) */
const accumulate = (sum: number, offset: number) => [
  0x20, sum,
  0x20, 7, 0x20, 8, 0x6a, SIMD, 0x00, 2, offset, // v128.load vector + d + offset
  0x20, 3, 0x20, 8, 0x6a, SIMD, 0x00, 2, offset, // v128.load query + d + offset
  ...F32X4_MUL, ...F32X4_ADD, 0x21, sum,
];
const lane = (j: number) => [0x20, 9, SIMD, 0x1f, j]; // f32x4.extract_lane j of a
const BODY = [
  0x02, 0x03, 0x7f, 0x02, 0x7b, //                 locals: 3 x i32, 2 x v128
  0x20, 1, 0x20, 2, 0x41, 2, 0x74, 0x6a, 0x21, 6, // end = positionsAt + n * 4
  0x20, 2, 0x45, 0x0d, 0, //                       return when n == 0
  0x03, 0x40, //                                   loop (each position)
  0x20, 0, 0x20, 1, 0x28, 2, 0, 0x20, 4, 0x6c, 0x6a, 0x21, 7, // vector = vectorsAt + positions[i] * stride
  SIMD, 0x0c, ...new Array<number>(16).fill(0), 0x22, 9, 0x21, 10, // a = b = 0
  0x41, 0, 0x21, 8, //                             d = 0
  0x03, 0x40, //                                   loop (eight dimensions)
  ...accumulate(9, 0),
  ...accumulate(10, 16),
  0x20, 8, 0x41, 32, 0x6a, 0x22, 8, 0x20, 4, 0x49, 0x0d, 0, // d += 32; again while d < stride
  0x0b,
  0x20, 9, 0x20, 10, ...F32X4_ADD, 0x21, 9, //    a += b
  0x20, 5, ...lane(0), ...lane(1), 0x92, ...lane(2), ...lane(3), 0x92, 0x92, // (a0 + a1) + (a2 + a3)
  0xbb, 0x39, 3, 0, //                             scores[i] = that, as float64
  0x20, 5, 0x41, 8, 0x6a, 0x21, 5, //              scoresAt += 8
  0x20, 1, 0x41, 4, 0x6a, 0x22, 1, 0x20, 6, 0x49, 0x0d, 0, // positionsAt += 4; again while < end
  0x0b,
  0x0b,
];
/** The module importing its memory as declared: plain (min 1 page), or shared (min 1, max 65,536 pages: any shared memory fits). */
const moduleOf = (memoryLimits: number[]) =>
  new WebAssembly.Module(
    new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, [1, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]), // type: (i32 x 6) -> ()
      ...section(2, [1, ...name('env'), ...name('memory'), 0x02, ...memoryLimits]), // import env.memory
      ...section(3, [1, 0]), //                                                 one function of type 0
      ...section(7, [1, ...name('scores'), 0x00, 0]), //                        exported as "scores"
      ...section(10, [1, ...leb(BODY.length), ...BODY]),
    ]),
  );
const PLAIN = moduleOf([0x00, 0x01]);
const SHARED = moduleOf([0x03, 0x01, ...leb(65_536)]);

const PAGE = 65_536;

/** Bytes of one thread's scratch: the query, the chunk's positions and its scores. */
const scratchBytes = (stride: number) => stride * 4 + CHUNK * 4 + CHUNK * 8;

/**
 * A kernel for `count` vectors of `dims` floats (its memory sized once: a view never
 * detaches). With `threads` > 1 the memory is shared (its buffer a
 * SharedArrayBuffer) and holds one scratch area per thread: this thread uses the
 * first, a search thread gets its own view with `dotKernelOn(kernel.memory, ...)`.
 */
export function dotKernel(count: number, dims: number, threads = 1): DotKernel {
  const stride = Math.ceil(dims / 8) * 8;
  const pages = Math.ceil((count * stride * 4 + threads * scratchBytes(stride)) / PAGE);
  const memory = threads > 1 ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : new WebAssembly.Memory({ initial: pages });
  return dotKernelOn(memory, count, dims, 0);
}

/** Thread `slot`'s kernel over a memory dotKernel made: the same vectors, the slot's own scratch. */
export function dotKernelOn(memory: WebAssembly.Memory, count: number, dims: number, slot: number): DotKernel {
  const stride = Math.ceil(dims / 8) * 8;
  const queryAt = count * stride * 4 + slot * scratchBytes(stride);
  const positionsAt = queryAt + stride * 4;
  const scoresAt = positionsAt + CHUNK * 4; // a multiple of 8: every region is a multiple of 16 bytes
  const shared = memory.buffer instanceof SharedArrayBuffer;
  const exports = new WebAssembly.Instance(shared ? SHARED : PLAIN, { env: { memory } }).exports as { scores: (...args: number[]) => void };
  return {
    dims,
    stride,
    memory,
    vectors: new Float32Array(memory.buffer, 0, count * stride),
    query: new Float32Array(memory.buffer, queryAt, stride),
    positions: new Int32Array(memory.buffer, positionsAt, CHUNK),
    scores: new Float64Array(memory.buffer, scoresAt, CHUNK),
    score: (n) => exports.scores(0, positionsAt, n, queryAt, stride * 4, scoresAt),
  };
}
