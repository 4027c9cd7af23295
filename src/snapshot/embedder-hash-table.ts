/**
 * uint32 feature hash -> row index, open addressing with linear probing over typed
 * arrays. A JS Map keyed by numbers above 2^30 boxes every key; this table does not
 * allocate per lookup, which keeps embedding a query in microseconds.
 */
export class FeatureTable {
  private readonly keys: Uint32Array;
  private readonly rows: Int32Array;
  private readonly mask: number;

  constructor(hashes: Uint32Array) {
    let capacity = 16;
    while (capacity < hashes.length * 2) capacity *= 2; // load factor <= 0.5
    this.keys = new Uint32Array(capacity);
    this.rows = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
    for (let i = 0; i < hashes.length; i++) {
      let slot = mix(hashes[i]!) & this.mask;
      while (this.rows[slot] !== -1 && this.keys[slot] !== hashes[i]) slot = (slot + 1) & this.mask;
      if (this.rows[slot] === -1) {
        this.keys[slot] = hashes[i]!;
        this.rows[slot] = i;
      }
    }
  }

  /** Row of a hash, or -1. */
  get(hash: number): number {
    let slot = mix(hash) & this.mask;
    for (;;) {
      const row = this.rows[slot]!;
      if (row === -1 || this.keys[slot] === hash) return row;
      slot = (slot + 1) & this.mask;
    }
  }
}

// FNV-1a's low bits are weak for short keys; scramble before masking.
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}
