/**
 * Typed arrays for per-snapshot structures that every search thread of the process
 * reads (src/server/search-threads.ts): on a SharedArrayBuffer when more than one
 * thread searches the snapshot, so handing one to a thread shares it instead of
 * copying it; on an ordinary buffer otherwise.
 */
const bufferOf = (bytes: number, threads: number) => (threads > 1 ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));

export const uint8Array = (n: number, threads: number) => new Uint8Array(bufferOf(n, threads));
export const int32Array = (n: number, threads: number) => new Int32Array(bufferOf(n * 4, threads));
export const float64Array = (n: number, threads: number) => new Float64Array(bufferOf(n * 8, threads));
