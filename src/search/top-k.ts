/**
 * A bounded min-heap keeping the k best (score desc, rowid asc) of a stream: the
 * ranking step of both search sides, O(n log k) and allocation-free per item.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly rowids: Int32Array;
  size = 0;
  /**
   * The score an item must beat to enter (-Infinity while not full): a field set by
   * push, not a getter, because the walks read it at every visit (a getter was 3% of
   * the keyword side's CPU at 1,000,000 providers).
   */
  threshold = -Infinity;

  readonly k: number;
  constructor(k: number) {
    this.k = k;
    this.scores = new Float64Array(k);
    this.rowids = new Int32Array(k);
  }

  /** true when (score, id) ranks below (s, i): lower score, or same score and larger rowid */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.rowids[a]! > this.rowids[b]!);
  }

  push(score: number, id: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.rowids[i] = id;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      if (this.size === this.k) this.threshold = this.scores[0]!;
      return;
    }
    const rootScore = this.scores[0]!;
    if (score < rootScore || (score === rootScore && id > this.rowids[0]!)) return;
    this.scores[0] = score;
    this.rowids[0] = id;
    this.siftDown();
    this.threshold = this.scores[0]!;
  }

  /** The root to its place below (after it was replaced). */
  private siftDown(): void {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
    const id = this.rowids[a]!;
    this.rowids[a] = this.rowids[b]!;
    this.rowids[b] = id;
  }

  /**
   * The kept ids, best first; empties the heap. The worst is popped first into the
   * last place: no object per item and no sort (this was 3% of search's CPU).
   */
  ids(): number[] {
    this.threshold = -Infinity;
    const out = new Array<number>(this.size);
    while (this.size > 0) {
      const last = --this.size;
      out[last] = this.rowids[0]!;
      this.scores[0] = this.scores[last]!;
      this.rowids[0] = this.rowids[last]!;
      this.siftDown();
    }
    return out;
  }
}
