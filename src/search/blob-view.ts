/**
 * A SQLite blob (better-sqlite3 returns a Buffer) read as typed values: the Buffer's own
 * memory when it is aligned for the type (better-sqlite3's blobs are), else a copy.
 */
type TypedArrayOf<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; new (buffer: ArrayBufferLike): T; BYTES_PER_ELEMENT: number };

export function viewOf<T>(b: Buffer, Type: TypedArrayOf<T>): T {
  const size = Type.BYTES_PER_ELEMENT;
  return b.byteOffset % size === 0 ? new Type(b.buffer, b.byteOffset, b.byteLength / size) : new Type(new Uint8Array(b).buffer);
}
