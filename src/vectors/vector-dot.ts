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
 * A kernel's memory holds float32 vectors (the builder's centroids: `floats` of them) or int8
 * codes (the providers' vectors, and the search's centroids: `codes` of them; one byte a
 * dimension, `codeStride` apart: dims rounded up to a multiple of 16), which the IVF scan reads (vector-index.ts):
 * a quarter of the bytes, and the scan is bound by memory (on a 2-core Xeon, a
 * float32 vector read in order from the 256 MB of 1,000,000 cost 48 ns, its codes
 * 17 ns; from the processor's cache 18 and 10 ns).
 * The code kernel is exact integer arithmetic: int8 codes sign-extended to 16 bits
 * times the int16 query, i32x4.dot_i16x8_s, two running sums of four int32 lanes,
 * then the lanes added; |sum| <= 127 x 32767 x dims never overflows for dims < 512.
 * It is written out for the code stride (no inner loop, the query held in locals):
 * looping over the dimensions cost twice the instructions.
 *
 * One call scores a chunk of positions, so the JS-to-Wasm call is paid per chunk,
 * not per vector: score(n) sets scores[i] = vector(positions[i]) . query, i < n.
 * The code kernels keep only the positions whose score reaches a cut (the scan's
 * k-th best so far less its margin): scoreCodes(n, cut) of positions[0 .. n - 1],
 * scoreCodeRange(first, n, cut) of the positions first .. first + n - 1; each writes
 * the kept positions to positions[0 ..] and their scores to codeScores[0 ..], in
 * order, and returns how many. Most of a scan's positions fall under the cut, and
 * testing them in JavaScript cost more than scoring them (a CPU profile at 100k: the
 * scan's JS loops 28% of the vector side, the kernel 13%).
 *
 * The int16 kernel gives the scan's final scores: scoreInt16(n) sets scores[i] =
 * int16s(positions[i]) . query64, float64 arithmetic (two dimensions a lane, the
 * lanes added at the end). In JavaScript the same sums cost 60 of the vector
 * side's 270 us a query at 100k, for about 240 vectors.
 */

/** What a kernel's memory holds: `floats` float32 vectors, `codes` vectors' int8 codes, `int16s` vectors of int16s. */
export interface KernelCounts {
  floats: number;
  codes: number;
  int16s: number;
}

/** Positions scored per call. */
export const CHUNK = 1024;

export interface DotKernel {
  dims: number;
  /** floats from one vector to the next: dims rounded up to a multiple of 8 */
  stride: number;
  /** the Wasm memory of the vectors and of this thread's scratch */
  memory: WebAssembly.Memory;
  /** floats x stride, in Wasm memory; fill before scoring */
  vectors: Float32Array;
  /** stride floats; the query of the next calls */
  query: Float32Array;
  positions: Int32Array;
  scores: Float64Array;
  score(n: number): void;
  /** bytes from one vector's codes to the next: dims rounded up to a multiple of 16 */
  codeStride: number;
  /** codes x codeStride int8 codes, in Wasm memory; fill before scoring */
  codes: Int8Array;
  /** codeStride int16s; the query of the next scoreCodes calls */
  query16: Int16Array;
  codeScores: Int32Array;
  /** the kept of positions[0 .. n - 1] (at least `cut`) into positions and codeScores; how many */
  scoreCodes(n: number, cut: number): number;
  /** the kept of the positions first .. first + n - 1 (n <= CHUNK) into positions and codeScores; how many */
  scoreCodeRange(first: number, n: number, cut: number): number;
  /** int16s x dims int16 values, dims apart (not padded), in Wasm memory; fill before scoring */
  int16s: Int16Array;
  /** codeStride float64s, zero past dims; the query of the next scoreInt16 calls */
  query64: Float64Array;
  /** scores[i] = int16s(positions[i]) . query64, i < n */
  scoreInt16(n: number): void;
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
// The code kernels, written out for one code stride, one reading positions from a list
// (gather) and one scoring a run of positions (range): parameters 0-7: codesAt, the list's
// address (gather) or the first position (range), n, query16At, code stride bytes, the
// output positions' and scores' addresses (int32), cut; each keeps the positions scoring at
// least cut, in order, and returns how many. Locals: 8 end, 9 count, 10 the codes' address,
// 11 the score, 12 the position; 13-14 (v128) the sums a, b; 15.. (v128) the query, eight
// int16s each, loaded once a call.
const I32X4_DOT_I16X8_S = [SIMD, 0xba, 0x01];
const I32X4_ADD = [SIMD, 0xae, 0x01];
const A = 13;
const QUERY = 15;
const intLane = (j: number) => [0x20, A, SIMD, 0x1b, j]; // i32x4.extract_lane j of a
/** dot(the 8 codes at codes + 8j, sign-extended to int16, query part j) */
const codeDot = (j: number) => [0x20, 10, SIMD, 0x01, 0, ...leb(8 * j), 0x20, QUERY + j, ...I32X4_DOT_I16X8_S];
/** out[count] = local `value` (out: the address in local `at`) */
const storeAtCount = (at: number, value: number) => [0x20, at, 0x20, 9, 0x41, 2, 0x74, 0x6a, 0x20, value, 0x36, 2, 0];
function codeBody(codeStride: number, gather: boolean): number[] {
  const parts = codeStride / 8;
  const body = [0x02, 0x05, 0x7f, 0x02 + parts, 0x7b]; //  locals: 5 x i32, (2 + parts) x v128
  for (let j = 0; j < parts; j++) body.push(0x20, 3, SIMD, 0x00, 0, ...leb(16 * j), 0x21, QUERY + j); // query part j
  body.push(
    ...(gather ? [0x20, 1, 0x20, 2, 0x41, 2, 0x74, 0x6a] : [0x20, 1, 0x20, 2, 0x6a]), 0x21, 8, // end = list + n * 4, or first + n
    0x02, 0x40, //                                   block
    0x20, 2, 0x45, 0x0d, 0, //                       out when n == 0
    0x03, 0x40, //                                   loop (each position)
    ...(gather ? [0x20, 1, 0x28, 2, 0] : [0x20, 1]), 0x22, 12, // position = list[i], or the counter itself
    0x20, 4, 0x6c, 0x20, 0, 0x6a, 0x21, 10, //       codes = codesAt + position * code stride
    ...codeDot(0), 0x21, A, ...codeDot(1), 0x21, A + 1, // a = part 0, b = part 1
  );
  // a += the even parts, b += the odd ones
  for (let j = 2; j < parts; j++) body.push(0x20, A + (j % 2), ...codeDot(j), ...I32X4_ADD, 0x21, A + (j % 2));
  body.push(
    0x20, A, 0x20, A + 1, ...I32X4_ADD, 0x21, A, // a += b
    ...intLane(0), ...intLane(1), 0x6a, ...intLane(2), ...intLane(3), 0x6a, 0x6a, 0x22, 11, // score = l0 + l1 + l2 + l3
    0x20, 7, 0x4e, 0x04, 0x40, //                    if score >= cut
    ...storeAtCount(5, 12), ...storeAtCount(6, 11), // positions[count] = position, scores[count] = score
    0x20, 9, 0x41, 1, 0x6a, 0x21, 9, //              count += 1
    0x0b,
    0x20, 1, 0x41, gather ? 4 : 1, 0x6a, 0x22, 1, 0x20, 8, 0x49, 0x0d, 0, // next; again while < end
    0x0b,
    0x0b,
    0x20, 9, //                                      the count
    0x0b,
  );
  return body;
}
// The int16 kernel: parameters 0-5: int16sAt, positionsAt, n, query64At, row bytes (dims x 2),
// scoresAt. Locals: 6 end of positions, 7 the row's address; 8-9 (v128) the sums a, b; 10..
// (v128) the query, two float64s each, loaded once a call. Dimensions 2p and 2p + 1: four int16s
// read at 4p bytes (v128.load16x4_s), the low two as float64s (f64x2.convert_low_i32x4_s), times
// query part p. A row's last part may read past it (into the next row, or the region's padding):
// the query is zero there.
const F64X2_ADD = [SIMD, 0xf0, 0x01];
const F64X2_MUL = [SIMD, 0xf2, 0x01];
const F64X2_CONVERT_LOW_I32X4_S = [SIMD, 0xfe, 0x01];
/** the int16 pair p of the row times query part p, as an f64x2 */
const int16Pair = (p: number) => [0x20, 7, SIMD, 0x03, 0, ...leb(4 * p), ...F64X2_CONVERT_LOW_I32X4_S, 0x20, 10 + p, ...F64X2_MUL];
function int16Body(codeStride: number): number[] {
  const parts = codeStride / 2;
  const body = [0x02, 0x02, 0x7f, 0x02 + parts, 0x7b]; //  locals: 2 x i32, (2 + parts) x v128
  for (let p = 0; p < parts; p++) body.push(0x20, 3, SIMD, 0x00, 0, ...leb(16 * p), 0x21, 10 + p); // query part p
  body.push(
    0x20, 1, 0x20, 2, 0x41, 2, 0x74, 0x6a, 0x21, 6, // end = positionsAt + n * 4
    0x20, 2, 0x45, 0x0d, 0, //                       return when n == 0
    0x03, 0x40, //                                   loop (each position)
    0x20, 0, 0x20, 1, 0x28, 2, 0, 0x20, 4, 0x6c, 0x6a, 0x21, 7, // row = int16sAt + positions[i] * row bytes
    ...int16Pair(0), 0x21, 8, ...int16Pair(1), 0x21, 9, // a = pair 0, b = pair 1
  );
  for (let p = 2; p < parts; p++) body.push(0x20, 8 + (p % 2), ...int16Pair(p), ...F64X2_ADD, 0x21, 8 + (p % 2));
  body.push(
    0x20, 8, 0x20, 9, ...F64X2_ADD, 0x21, 8, //      a += b
    0x20, 5, 0x20, 8, SIMD, 0x21, 0, 0x20, 8, SIMD, 0x21, 1, 0xa0, 0x39, 3, 0, // scores[i] = a0 + a1
    0x20, 5, 0x41, 8, 0x6a, 0x21, 5, //              scoresAt += 8
    0x20, 1, 0x41, 4, 0x6a, 0x22, 1, 0x20, 6, 0x49, 0x0d, 0, // positionsAt += 4; again while < end
    0x0b,
    0x0b,
  );
  return body;
}
/**
 * The module for a code stride, importing its memory as declared: plain (min 1 page), or shared
 * (min 1, max 65,536 pages: any shared memory fits).
 */
const moduleOf = (memoryLimits: number[], codeStride: number) => {
  const gather = codeBody(codeStride, true);
  const range = codeBody(codeStride, false);
  const int16 = int16Body(codeStride);
  return new WebAssembly.Module(
    new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      // types: (i32 x 6) -> (), (i32 x 8) -> i32
      ...section(1, [2, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0, 0x60, 8, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f]),
      ...section(2, [1, ...name('env'), ...name('memory'), 0x02, ...memoryLimits]), // import env.memory
      ...section(3, [4, 0, 1, 1, 0]), //                                        four functions
      ...section(7, [4, ...name('scores'), 0x00, 0, ...name('codeScores'), 0x00, 1, ...name('codeRange'), 0x00, 2, ...name('int16Scores'), 0x00, 3]), // their exports
      ...section(10, [4, ...leb(BODY.length), ...BODY, ...leb(gather.length), ...gather, ...leb(range.length), ...range, ...leb(int16.length), ...int16]),
    ]),
  );
};
const modules = new Map<string, WebAssembly.Module>();
function moduleFor(shared: boolean, codeStride: number): WebAssembly.Module {
  const key = `${shared} ${codeStride}`;
  let module = modules.get(key);
  if (!module) modules.set(key, (module = moduleOf(shared ? [0x03, 0x01, ...leb(65_536)] : [0x00, 0x01], codeStride)));
  return module;
}

const PAGE = 65_536;

const strides = (dims: number) => ({ stride: Math.ceil(dims / 8) * 8, codeStride: Math.ceil(dims / 16) * 16 });

/** Bytes of one thread's scratch: the float32, int16 and float64 queries, the chunk's positions and its two kinds of scores. */
const scratchBytes = (stride: number, codeStride: number) => stride * 4 + codeStride * 2 + codeStride * 8 + CHUNK * 4 + CHUNK * 8 + CHUNK * 4;

const codeBytes = (counts: KernelCounts, codeStride: number) => Math.ceil((counts.codes * codeStride) / 16) * 16;
/** The int16 rows and what the kernel's last read of the last row may reach past them, to a multiple of 16. */
const int16Bytes = (counts: KernelCounts, dims: number, codeStride: number) => (counts.int16s > 0 ? Math.ceil((counts.int16s * dims * 2 + codeStride * 2 + 8) / 16) * 16 : 0);

/** Bytes of the vectors, the codes and the int16 rows (every region a multiple of 16 bytes). */
const vectorBytes = (counts: KernelCounts, dims: number, stride: number, codeStride: number) =>
  counts.floats * stride * 4 + codeBytes(counts, codeStride) + int16Bytes(counts, dims, codeStride);

/**
 * A kernel for vectors of `dims` floats (its memory sized once: a view never
 * detaches). With `threads` > 1 the memory is shared (its buffer a
 * SharedArrayBuffer) and holds one scratch area per thread: this thread uses the
 * first, a search thread gets its own view with `dotKernelOn(kernel.memory, ...)`.
 */
export function dotKernel(counts: KernelCounts, dims: number, threads = 1): DotKernel {
  const { stride, codeStride } = strides(dims);
  const pages = Math.ceil((vectorBytes(counts, dims, stride, codeStride) + threads * scratchBytes(stride, codeStride)) / PAGE);
  const memory = threads > 1 ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }) : new WebAssembly.Memory({ initial: pages });
  return dotKernelOn(memory, counts, dims, 0);
}

/** Thread `slot`'s kernel over a memory dotKernel made: the same vectors, the slot's own scratch. */
export function dotKernelOn(memory: WebAssembly.Memory, counts: KernelCounts, dims: number, slot: number): DotKernel {
  const { stride, codeStride } = strides(dims);
  const codesAt = counts.floats * stride * 4;
  const int16sAt = codesAt + codeBytes(counts, codeStride);
  const queryAt = vectorBytes(counts, dims, stride, codeStride) + slot * scratchBytes(stride, codeStride);
  const query16At = queryAt + stride * 4;
  const query64At = query16At + codeStride * 2;
  const positionsAt = query64At + codeStride * 8;
  const scoresAt = positionsAt + CHUNK * 4; // a multiple of 8: every region is a multiple of 16 bytes
  const codeScoresAt = scoresAt + CHUNK * 8;
  const shared = memory.buffer instanceof SharedArrayBuffer;
  type Kernel = (...args: number[]) => number;
  const exports = new WebAssembly.Instance(moduleFor(shared, codeStride), { env: { memory } }).exports as { scores: Kernel; codeScores: Kernel; codeRange: Kernel; int16Scores: Kernel };
  return {
    dims,
    stride,
    memory,
    vectors: new Float32Array(memory.buffer, 0, counts.floats * stride),
    query: new Float32Array(memory.buffer, queryAt, stride),
    positions: new Int32Array(memory.buffer, positionsAt, CHUNK),
    scores: new Float64Array(memory.buffer, scoresAt, CHUNK),
    score: (n) => exports.scores(0, positionsAt, n, queryAt, stride * 4, scoresAt),
    codeStride,
    codes: new Int8Array(memory.buffer, codesAt, counts.codes * codeStride),
    query16: new Int16Array(memory.buffer, query16At, codeStride),
    codeScores: new Int32Array(memory.buffer, codeScoresAt, CHUNK),
    scoreCodes: (n, cut) => exports.codeScores(codesAt, positionsAt, n, query16At, codeStride, positionsAt, codeScoresAt, cut),
    scoreCodeRange: (first, n, cut) => exports.codeRange(codesAt, first, n, query16At, codeStride, positionsAt, codeScoresAt, cut),
    int16s: new Int16Array(memory.buffer, int16sAt, counts.int16s * dims),
    query64: new Float64Array(memory.buffer, query64At, codeStride),
    scoreInt16: (n) => exports.int16Scores(int16sAt, positionsAt, n, query64At, dims * 2, scoresAt),
  };
}
