/**
 * The named service, the fourth term of rrfScore. The services are those the
 * request's one reading found (src/query/nl-query.ts: the snapshot's category
 * names and the service lexicon of src/text/lexicon), as AI recommend reads them;
 * when it names services ("jasa olshop" is e-commerce), each candidate whose primary category is one of them, or a child
 * of one ("aplikasi mobile" names mobile apps, a parent), adds
 *
 *   namedService / (RRF_K + 1)      namedService 1 or 0 (as much as rank 1 in a side)
 *
 * Never a filter: a provider of another category the request's words match stays in
 * the list, below the named service's. Services named only to qualify another one
 * ("website untuk iklan": the ads are a purpose, not the service) add nothing.
 * Like category coherence, a term of the fusion of two sides: an answer from one
 * side alone keeps that side's order.
 *
 * Measured (nDCG@10, hybrid / recommend), against no such term: the independent
 * judged set 0.811 / 0.808 -> 0.846 / 0.825 (paraphrase 0.477 / 0.536 -> 0.593 /
 * 0.596, cross-language 0.760 / 0.786 -> 0.792 / 0.797, exact, typo and city
 * unchanged), the project's set 0.913 / 0.921 -> 0.914 / 0.921. A weight of 0.5
 * gained less (paraphrase 0.573 / 0.578); 0.75-1.5 measured alike. Added before the
 * coherence vote instead of after it: cross-language 0.792 -> 0.752 (the named
 * category outvotes the one both sides agree on).
 */
import { categoryFilterIds, categoryTree, usableCategory, type CategoryTree } from '../query/categories.ts';
import type { ServiceMatch } from '../query/nl-query.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { primaryCategoryIndex } from './category-coherence.ts';
import { termPostings } from './postings-store.ts';
import { snapshotVocabulary } from './vocabulary.ts';

/**
 * The primary-category numbers (category-coherence.ts) the named services stand for:
 * each usable category named, and a top-level one's children.
 */
export function namedCategoryNumbers(tree: CategoryTree, numbers: ReadonlyMap<string, number>, slugs: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const slug of slugs) {
    const node = usableCategory(tree, slug);
    if (!node) continue;
    for (const id of categoryFilterIds(tree, node)) {
      const n = numbers.get(id);
      if (n !== undefined) out.add(n);
    }
  }
  return out;
}

/** The primary-category numbers of the services a request names (empty when it names none). */
export function namedServices(snapshot: Snapshot, services: readonly ServiceMatch[]): Set<number> {
  if (services.length === 0) return new Set();
  return namedCategoryNumbers(categoryTree(snapshot), primaryCategoryIndex(snapshot).numbers, services.map((s) => s.slug));
}

/** A word that many of the snapshot's profiles use says little about which service a request means (and costs a long list). */
const MAX_WORD_SHARE = 0.2;
const MIN_WORD_LIMIT = 50;
/** Profiles of the favoured service that must use the request's words, and how many times the other services' it must count. */
const MIN_FAVOURING = 2;
const FAVOURING_RATIO = 2;

/**
 * Which of the services a phrase they share stands for ("media sosial": "Iklan Media
 * Sosial" or "Social Media Management"), from the snapshot's own text: the profiles
 * that use the request's other words ("kelola"), counted by primary category (a
 * child under its parent's slug when the parent is the one asked about). The
 * service whose providers use them at least FAVOURING_RATIO times as often as any
 * other's, and at least MIN_FAVOURING times, is the reading; else none (an unsure
 * reading adds nothing). Words a fifth of the profiles use are skipped. Passed to the
 * request's reader (src/query/nl-query.ts: ParseOptions.favoured).
 */
export function favouredService(snapshot: Snapshot): (words: readonly string[], slugs: readonly string[]) => string | null {
  return snapshot.memo('favoured-service', () => {
    const tree = categoryTree(snapshot);
    const { byRowid, numbers } = primaryCategoryIndex(snapshot);
    const vocabulary = snapshotVocabulary(snapshot);
    const published = snapshot.prepare<[], number>('SELECT count(*) FROM published_providers').pluck().get() ?? 0;
    const maxList = Math.max(MIN_WORD_LIMIT, Math.floor(published * MAX_WORD_SHARE));
    return (words, slugs) => {
      const sets = slugs.map((slug) => namedCategoryNumbers(tree, numbers, [slug]));
      const counts = slugs.map(() => 0);
      for (const word of new Set(words)) {
        if (!vocabulary.has(word)) continue;
        const { rowids } = termPostings(snapshot, word);
        if (rowids.length > maxList) continue;
        for (const rowid of rowids) {
          const category = byRowid[rowid]!;
          sets.forEach((set, i) => {
            if (set.has(category)) counts[i]!++;
          });
        }
      }
      const order = counts.map((n, i) => i).sort((a, b) => counts[b]! - counts[a]!);
      const [best, next] = [counts[order[0]!] ?? 0, counts[order[1]!] ?? 0];
      return best >= MIN_FAVOURING && best >= FAVOURING_RATIO * next ? slugs[order[0]!]! : null;
    };
  });
}

/** Sets each candidate's namedService and adds its term to rrfScore; `categories` are primary categories by rowid. */
export function addNamedService(
  candidates: { rowid: number; rrfScore: number; namedService: boolean }[],
  categories: Int32Array,
  named: ReadonlySet<number>,
  rrfK: number,
): void {
  if (named.size === 0) return;
  for (const c of candidates) {
    if (!named.has(categories[c.rowid]!)) continue;
    c.namedService = true;
    c.rrfScore += 1 / (rrfK + 1);
  }
}
