/**
 * The line hashes of a stored line table (line-table.ts) by value, for the lines the
 * incremental scan does not find where it expects them (line-match.ts): an
 * open-addressing table over the 64-bit hashes in three Uint32Arrays (12 bytes a slot,
 * 1.5-3 slots a line: about 75 MB for 1,000,000 providers and 1,860,000 proofs), filled
 * from the table's words in a few milliseconds.
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

  add(hi: number, lo: number, value: number): void {
    let slot = lo & this.mask;
    while (this.values[slot] !== 0) slot = (slot + 1) & this.mask;
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.values[slot] = value + 1;
  }

  /** The value stored with this hash, or -1. */
  find(hi: number, lo: number): number {
    for (let slot = lo & this.mask; this.values[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.lo[slot] === lo && this.hi[slot] === hi) return this.values[slot]! - 1;
    }
    return -1;
  }
}
