/**
 * Which of a snapshot's categories each service of the built-in lexicon
 * (SERVICE_PHRASES, keyed by the generator's slugs) stands for. A dataset with
 * its own category tree names things a little differently ("ios-app" for "ios",
 * "devops-sre" for "devops", "company-profile-website" for
 * "company-profile-websites"): a lexicon key maps to its own slug when the
 * snapshot has it, else to the one category whose slug holds every word of the
 * key (compared by stem), and to nothing when that is ambiguous.
 */
import { englishStem } from '../language/stem.ts';
import { SERVICE_PHRASES } from '../text/lexicon/services.ts';

const stems = (slug: string) => slug.split('-').map(englishStem);

/** lexicon key -> snapshot category slug */
export function lexiconCategories(slugs: readonly string[]): Map<string, string> {
  const own = new Set(slugs);
  const keys = Object.keys(SERVICE_PHRASES);
  const claimed = new Set(keys.filter((k) => own.has(k)));
  const out = new Map<string, string>();
  for (const key of keys) {
    if (own.has(key)) {
      out.set(key, key);
      continue;
    }
    const wanted = stems(key);
    const candidates = slugs.filter((slug) => !claimed.has(slug) && wanted.every((w) => stems(slug).includes(w)));
    if (candidates.length === 1) out.set(key, candidates[0]!);
  }
  return out;
}
