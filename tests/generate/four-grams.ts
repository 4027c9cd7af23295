/** Word 4-gram overlap, the variety measure of the seed descriptions. */
export function wordFourGrams(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const grams = new Set<string>();
  for (let i = 0; i + 4 <= words.length; i++) grams.add(words.slice(i, i + 4).join(' '));
  return grams;
}

/** Shared 4-grams over the smaller side's 4-gram count (0 when either side has none). */
export function overlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const gram of small) if (large.has(gram)) shared++;
  return shared / small.size;
}

export interface WorstPair {
  i: number;
  j: number;
  ratio: number;
}

/** The pair of texts with the highest overlap. */
export function worstPair(texts: readonly string[]): WorstPair {
  const grams = texts.map(wordFourGrams);
  let worst: WorstPair = { i: -1, j: -1, ratio: 0 };
  for (let i = 0; i < grams.length; i++) {
    for (let j = i + 1; j < grams.length; j++) {
      const ratio = overlap(grams[i] as Set<string>, grams[j] as Set<string>);
      if (ratio > worst.ratio) worst = { i, j, ratio };
    }
  }
  return worst;
}
