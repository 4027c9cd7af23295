/**
 * The stored line hashes of a snapshot (dataset_records) in a compact form for the
 * incremental scan: an open-addressing table over the first 64 bits of each md5, in three
 * Uint32Arrays (12 bytes a slot, 1.5-3 slots a record: about 3 MB for 100,000 providers
 * and 185,000 proofs) instead of a Map of strings (about 100 bytes a record).
 * A 64-bit prefix shared by a changed line and a stored one by chance: about n/2^64.
 */
export class LineHashIndex {
  private readonly hi: Uint32Array;
  private readonly lo: Uint32Array;
  /** value + 1; 0: empty */
  private readonly values: Uint32Array;
  private readonly mask: number;

  constructor(records: number) {
    let size = 16;
    while (size < records * 1.5) size *= 2;
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
    this.values = new Uint32Array(size);
    this.mask = size - 1;
  }

  add(hash: Buffer, value: number): void {
    const hi = hash.readUInt32LE(0);
    const lo = hash.readUInt32LE(4);
    let slot = lo & this.mask;
    while (this.values[slot] !== 0) slot = (slot + 1) & this.mask;
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.values[slot] = value + 1;
  }

  /** The value stored with this hash, or -1. */
  find(hash: Buffer): number {
    const hi = hash.readUInt32LE(0);
    const lo = hash.readUInt32LE(4);
    for (let slot = lo & this.mask; this.values[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.lo[slot] === lo && this.hi[slot] === hi) return this.values[slot]! - 1;
    }
    return -1;
  }
}
