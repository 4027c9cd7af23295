/**
 * The one URL a public REST answer is a function of: the path, and the route's
 * query parameters as its schema normalizes them, in a fixed order, leaving out
 * unknown parameters and values equal to their defaults. `?q=web&x=1`,
 * `?limit=20&q=%20web` and `?q=web` are one URL, so they share an ETag and one
 * response-cache entry (a random `&x=` never makes a cache miss), and Link
 * headers are built from it. Handlers read their query from it too, so the
 * answer cannot depend on anything the key leaves out.
 */
import { queryRecord } from '../../schemas/api/params.ts';
import type { RestRoute } from './route.ts';

const defaultsByRoute = new WeakMap<RestRoute, Record<string, unknown>>();

function defaultsOf(route: RestRoute): Record<string, unknown> {
  let defaults = defaultsByRoute.get(route);
  if (!defaults) {
    defaults = (route.query?.parse({}) ?? {}) as Record<string, unknown>;
    defaultsByRoute.set(route, defaults);
  }
  return defaults;
}

export function canonicalUrl(route: RestRoute, url: URL): URL {
  const canonical = new URL(url.pathname, url.origin);
  if (!route.query || url.search === '') return canonical;
  const values = route.query.parse(queryRecord(url.searchParams)) as Record<string, unknown>;
  const defaults = defaultsOf(route);
  const params = new URLSearchParams();
  for (const name of Object.keys(values).sort()) {
    const value = values[name];
    if (value !== undefined && value !== defaults[name]) params.append(name, String(value));
  }
  canonical.search = params.toString();
  return canonical;
}
