/**
 * A bounded min-heap keeping the k best (score desc, rowid asc) of a stream: the
 * ranking step of both search sides, O(n log k) and allocation-free per item.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Int32Array;
  size = 0;

  readonly k: number;
  constructor(k: number) {
    this.k = k;
    this.scores = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  /** true when (score, id) ranks below (s, i): lower score, or same score and larger rowid */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.ids[a]! > this.ids[b]!);
  }

  /** The score an item must beat to enter (-Infinity while not full). */
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0]!;
  }

  push(score: number, id: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.ids[i] = id;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootScore = this.scores[0]!;
    if (score < rootScore || (score === rootScore && id > this.ids[0]!)) return;
    this.scores[0] = score;
    this.ids[0] = id;
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
    const id = this.ids[a]!;
    this.ids[a] = this.ids[b]!;
    this.ids[b] = id;
  }

  /** The kept items, best first. */
  sorted(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ id: this.ids[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
