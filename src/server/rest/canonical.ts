/**
 * The one URL a public REST answer is a function of: the path, and the route's
 * query parameters as its schema normalizes them, in a fixed order, leaving out
 * unknown parameters and values equal to their defaults. `?q=web&x=1`,
 * `?limit=20&q=%20web` and `?q=web` are one URL, so they share an ETag and one
 * response-cache entry (a random `&x=` never makes a cache miss), and Link
 * headers are built from it. Handlers read their query from it too, so the
 * answer cannot depend on anything the key leaves out.
 *
 * Normalizing runs the route's zod schema, which costs more than a cached answer
 * (it halved the cached search rate), so the canonical query of each raw query
 * string is remembered per route on the app context: a bounded map, emptied when
 * full (a client sending endless distinct junk only makes itself pay the parse).
 */
import { queryRecord } from '../../schemas/api/params.ts';
import type { AppContext } from '../context.ts';
import type { RestRoute } from './route.ts';

const MEMO_LIMIT = 20_000;

/** The process's canonical queries, one memo per route; lives on the app context. */
class CanonicalQueries {
  private readonly memos = new Map<RestRoute, Map<string, string>>();
  private readonly defaults = new Map<RestRoute, Record<string, unknown>>();

  private defaultsOf(route: RestRoute): Record<string, unknown> {
    let defaults = this.defaults.get(route);
    if (!defaults) this.defaults.set(route, (defaults = route.query?.parse({}) ?? {}));
    return defaults;
  }

  /** The canonical query string (without `?`) of a raw one, for this route. */
  search(route: RestRoute, search: string): string {
    if (!route.query || search === '') return '';
    let memo = this.memos.get(route);
    if (!memo) this.memos.set(route, (memo = new Map()));
    const known = memo.get(search);
    if (known !== undefined) return known;
    const values = route.query.parse(queryRecord(new URLSearchParams(search)));
    const defaults = this.defaultsOf(route);
    const params = new URLSearchParams();
    for (const name of Object.keys(values).sort()) {
      const value = values[name];
      if (value !== undefined && value !== defaults[name]) params.append(name, String(value));
    }
    if (memo.size >= MEMO_LIMIT) memo.clear();
    const canonical = params.toString();
    memo.set(search, canonical);
    return canonical;
  }
}

const canonicalQueries = (app: AppContext) => app.memo('canonical-queries', () => new CanonicalQueries());

/** The canonical path and query (`/api/v1/search?q=web`): the response-cache key and what the ETag hashes. */
export function canonicalKey(route: RestRoute, url: URL, app: AppContext): string {
  const search = canonicalQueries(app).search(route, url.search);
  return search === '' ? url.pathname : `${url.pathname}?${search}`;
}

export function canonicalUrl(route: RestRoute, url: URL, app: AppContext): URL {
  return new URL(canonicalKey(route, url, app), url.origin);
}
