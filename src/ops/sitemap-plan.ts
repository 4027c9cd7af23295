/**
 * Which provider and VIC sitemap files a small publish renders again (issue 43).
 * Both kinds list every published provider in slug order, `maxUrls` per file, so
 * a file changes only where a changed provider is, or after it:
 *
 * - edits alone (no provider added or gone): the files holding the edited slugs;
 * - with additions or removals: every file from the one holding the first changed
 *   slug to the last, since each later entry moves by the count's change.
 *
 * Files the new snapshot no longer has are removed by the render's manifest
 * comparison; files whose bytes come out equal are dropped there too. At a million
 * providers the provider and VIC files hold two million URLs: an edit renders one
 * file of each kind instead of forty.
 */
import { partCount } from '../site/sitemaps.ts';
import type { SnapshotDiff } from './diff.ts';

/** The first index at which `slug` is or would be in the sorted list. */
function lowerBound(sorted: readonly string[], slug: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < slug) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The 1-based numbers of the files to render, given the new snapshot's published
 * slugs in the order the sitemaps list them (SQLite's binary collation, as `<` compares).
 */
export function sitemapPartsToRender(newSlugs: readonly string[], diff: Pick<SnapshotDiff, 'added' | 'removed' | 'updated'>, maxUrls: number): number[] {
  const partOf = (index: number) => Math.floor(index / maxUrls) + 1;
  if (diff.added.length === 0 && diff.removed.length === 0) {
    return [...new Set(diff.updated.map((u) => partOf(lowerBound(newSlugs, u.after.slug))))].sort((a, b) => a - b);
  }
  const touched = [...diff.added, ...diff.removed, ...diff.updated.map((u) => u.after)];
  const first = partOf(touched.reduce((min, p) => Math.min(min, lowerBound(newSlugs, p.slug)), newSlugs.length));
  const last = partCount(newSlugs.length, maxUrls);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}
