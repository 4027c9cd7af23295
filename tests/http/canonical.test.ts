/**
 * The canonical URL of a public REST request (src/server/rest/canonical.ts): the
 * response-cache key, the ETag's input and the handler's query. Pure: no server.
 */
import { describe, expect, it } from 'vitest';
import { canonicalKey, canonicalUrl } from '../../src/server/rest/canonical.ts';
import { providerDetailRoute, providersRoute } from '../../src/server/rest/catalog.ts';
import { searchRoute } from '../../src/server/rest/search.ts';
import { testAppContext } from '../support/app-context.ts';

const at = (pathAndQuery: string) => new URL(pathAndQuery, 'http://node.internal');
const app = testAppContext({});

describe('canonicalKey', () => {
  it('drops unknown parameters and defaults, normalizes values and fixes the order', () => {
    const expected = '/api/v1/search?city=Bandung&q=toko+online&sort=rating';
    for (const raw of [
      '/api/v1/search?q=toko%20online&city=Bandung&sort=rating',
      '/api/v1/search?sort=RATING&city=%20Bandung%20&q=toko%20online',
      '/api/v1/search?q=toko+online&city=Bandung&sort=rating&page=1&limit=20&utm_source=x&x=%ZZ',
      '/api/v1/search?q=toko%20online&q=ignored&city=Bandung&sort=rating&limit=abc&page=-3',
    ]) {
      expect(canonicalKey(searchRoute, at(raw), app), raw).toBe(expected);
      expect(canonicalKey(searchRoute, at(raw), app), `${raw} (remembered)`).toBe(expected);
    }
    expect(canonicalKey(searchRoute, at('/api/v1/search?q=web&limit=500&page=2'), app)).toBe('/api/v1/search?limit=50&page=2&q=web');
    expect(canonicalKey(providersRoute, at('/api/v1/providers?x=1'), app)).toBe('/api/v1/providers');
  });

  it('keeps nothing of the query on routes that take none, and the canonical URL parses back to itself', () => {
    expect(canonicalKey(providerDetailRoute, at('/api/v1/providers/acme?q=1&x=2'), app)).toBe('/api/v1/providers/acme');
    const url = canonicalUrl(searchRoute, at('/api/v1/search?z=1&q=%20seo%20'), app);
    expect(url.pathname + url.search).toBe('/api/v1/search?q=seo');
    expect(canonicalKey(searchRoute, url, app)).toBe('/api/v1/search?q=seo');
  });
});
