/**
 * The landing lists of a snapshot (top-level category x city, the lists that
 * programmaticProviders ranks): landing pages show the head of their list and
 * their group's facts (city name, count), each provider page the head of its
 * primary list ("comparable providers") and the landing pages it is listed on.
 * Two ways to read them, for two sizes of render:
 *
 * - in one pass (a full build): every list from one ordered read of all links.
 *   Ranking one list per query costs a count and a sort per list, which grows
 *   with the list; at 100,000 providers one ordered read of all links is far cheaper.
 * - one at a time (a small publish renders a few pages, issue 43): each list the
 *   pages ask for, ranked by programmaticProviders' own query. One pass would
 *   cost seconds at a million providers to render a handful of pages.
 *
 * Same rule as programmaticProviders (src/query/discovery.ts), so pages are
 * byte-identical to the per-list queries: published, trust level >= 1, the
 * provider's city_slug equals the list's, and it is linked to the top-level
 * category or one of its active children (categoryFilterIds); ranked by trust
 * level desc, rating desc, slug asc (SQLite does the ordering, as in the query).
 */
import type { ProviderSummary } from '../schemas/provider.ts';
import { categoryFilterIds, categoryTree } from './categories.ts';
import { landingPath, programmaticParams, programmaticProviders, RANK_ORDER, TRUST_THRESHOLD, type ProgrammaticParam } from './discovery.ts';
import { toBusinessSummary } from './projections.ts';
import { publishedSummaryRows } from './providers.ts';
import type { Snapshot } from './snapshot.ts';

/** The longest head any page shows (landing pages list 50). */
export const LANDING_HEAD = 50;

interface LandingList {
  total: number;
  /** rowids of the first LANDING_HEAD providers, best first */
  head: number[];
}

export interface LandingLists {
  /** The first `limit` (<= LANDING_HEAD) providers of the list and its length. */
  top(categorySlug: string, citySlug: string, limit: number): { data: ProviderSummary[]; total: number };
  /** The group's landing page, or undefined when no listed provider is in it. */
  param(categorySlug: string, citySlug: string): ProgrammaticParam | undefined;
}

const RANKED_LINKS_SQL = `
  SELECT p.rowid AS rowid, p.city_slug AS citySlug, pc.category_id AS categoryId
  FROM published_providers p
  JOIN provider_categories pc ON pc.provider_rowid = p.rowid
  WHERE p.trust_level >= ${TRUST_THRESHOLD} AND p.city_slug IS NOT NULL
  ${RANK_ORDER}`;

const listKey = (categorySlug: string, citySlug: string) => `${categorySlug}\u0000${citySlug}`;

function buildLists(snapshot: Snapshot): { lists: Map<string, LandingList>; rows: Map<number, ProviderSummary> } {
  const tree = categoryTree(snapshot);
  // A linked category id -> the top-level slugs whose filter matches it.
  const listsOf = new Map<string, string[]>();
  for (const { node } of tree.roots) {
    for (const id of categoryFilterIds(tree, node)) listsOf.set(id, [...(listsOf.get(id) ?? []), node.slug]);
  }
  const lists = new Map<string, LandingList>();
  const members = new Map<string, Set<number>>();
  const links = snapshot.prepare<[], { rowid: number; citySlug: string; categoryId: string }>(RANKED_LINKS_SQL).all();
  for (const link of links) {
    for (const slug of listsOf.get(link.categoryId) ?? []) {
      const key = listKey(slug, link.citySlug);
      let seen = members.get(key);
      if (!seen) {
        members.set(key, (seen = new Set()));
        lists.set(key, { total: 0, head: [] });
      }
      // A provider linked to a parent and its child is one entry of the list.
      if (seen.has(link.rowid)) continue;
      seen.add(link.rowid);
      const list = lists.get(key)!;
      list.total++;
      if (list.head.length < LANDING_HEAD) list.head.push(link.rowid);
    }
  }
  const wanted = [...new Set([...lists.values()].flatMap((l) => l.head))];
  const rows = new Map<number, ProviderSummary>();
  for (let i = 0; i < wanted.length; i += 5000) {
    for (const [rowid, row] of publishedSummaryRows(snapshot, wanted.slice(i, i + 5000))) rows.set(rowid, toBusinessSummary(row));
  }
  return { lists, rows };
}

function checkLimit(limit: number): void {
  if (limit > LANDING_HEAD) throw new Error(`landing lists keep the first ${LANDING_HEAD} providers, not ${limit}`);
}

/**
 * Past this many landing groups, reading them one at a time costs more than one
 * pass over every list (at 100k providers a list costs about 20 ms to count and
 * rank, the pass 1.4 s; both grow with the directory).
 */
export const ONE_PASS_GROUPS = 64;

/** The lists for a render or a comparison that reads `groups` landing groups. */
export const landingListsFor = (snapshot: Snapshot, groups: number): LandingLists =>
  groups > ONE_PASS_GROUPS ? landingListsInOnePass(snapshot) : landingListsOneAtATime(snapshot);

/** Every list, computed once per snapshot (memo) on first use. */
export function landingListsInOnePass(snapshot: Snapshot): LandingLists {
  return snapshot.memo('site:landing-lists', () => {
    const { lists, rows } = buildLists(snapshot);
    const params = new Map(programmaticParams(snapshot).map((p) => [listKey(p.categorySlug, p.citySlug), p]));
    return {
      top(categorySlug, citySlug, limit) {
        checkLimit(limit);
        const list = lists.get(listKey(categorySlug, citySlug));
        if (!list) return { data: [], total: 0 };
        return { data: list.head.slice(0, limit).map((rowid) => rows.get(rowid)!), total: list.total };
      },
      param: (categorySlug, citySlug) => params.get(listKey(categorySlug, citySlug)),
    };
  });
}

// Every spelling of a citySlug has the one name shown (src/snapshot/place-names.ts): any row's will do.
const GROUP_CITY_SQL = `SELECT city_name FROM published_providers WHERE city_slug = ? AND trust_level >= ${TRUST_THRESHOLD} LIMIT 1`;

/** Each list when first asked for (memo per snapshot and list). */
export function landingListsOneAtATime(snapshot: Snapshot): LandingLists {
  return snapshot.memo('site:landing-lists-one-at-a-time', () => {
    const heads = new Map<string, { data: ProviderSummary[]; total: number }>();
    const head = (categorySlug: string, citySlug: string) => {
      const key = listKey(categorySlug, citySlug);
      let list = heads.get(key);
      if (!list) {
        const node = categoryTree(snapshot).bySlug.get(categorySlug);
        const isRoot = node !== undefined && categoryTree(snapshot).roots.some((r) => r.node.id === node.id);
        list = isRoot ? programmaticProviders(snapshot, node, { citySlug }, { page: 1, limit: LANDING_HEAD }) : { data: [], total: 0 };
        heads.set(key, list);
      }
      return list;
    };
    return {
      top(categorySlug, citySlug, limit) {
        checkLimit(limit);
        const { data, total } = head(categorySlug, citySlug);
        return { data: data.slice(0, limit), total };
      },
      param(categorySlug, citySlug) {
        const { total } = head(categorySlug, citySlug);
        if (total === 0) return undefined;
        const city = snapshot.prepare<[string], { city_name: string }>(GROUP_CITY_SQL).get(citySlug)!.city_name;
        return { categorySlug, city, citySlug, path: landingPath(categorySlug, citySlug), providerCount: total };
      },
    };
  });
}
