/** The home page's data: counts, the category tree, the market reports and the biggest landing pages. */
import { programmaticParams } from '../query/discovery.ts';
import { reportListings } from '../query/reports.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { publishedCount, usableCategories } from '../query/site-taxonomy.ts';

export function homePage(snapshot: Snapshot) {
  const categories = usableCategories(snapshot);
  return {
    published: publishedCount(snapshot),
    roots: categories.filter((c) => c.parent === null),
    reports: reportListings(snapshot),
    topLandings: programmaticParams(snapshot).slice(0, 24),
    categoryNames: new Map(categories.map((c) => [c.node.slug, c.node.name])),
  };
}

/** Category options of the search form: parents, each followed by its children. */
export function searchCategoryOptions(snapshot: Snapshot): { slug: string; name: string; depth: number }[] {
  return usableCategories(snapshot).map((c) => ({ slug: c.node.slug, name: c.node.name, depth: c.parent ? 1 : 0 }));
}
