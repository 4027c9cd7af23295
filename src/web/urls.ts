/**
 * Every public path of the site, built in one place so pages, sitemaps, llms.txt,
 * JSON-LD and the VIC card agree. One rule: no trailing slash anywhere (Astro's
 * trailingSlash 'never' and build.format 'file'), so no listed URL redirects.
 */
/** The public base URLs (PUBLIC_WEB_URL, PUBLIC_API_URL), without a trailing slash: what absolute links and JSON-LD ids start with. */
export interface PublicUrls {
  webUrl: string;
  apiUrl: string;
}

export const providerPath = (slug: string) => `/provider/${slug}`;
export const vicPath = (slug: string) => `/provider/${slug}/vic.json`;
export const categoryPath = (slug: string) => `/kategori/${slug}`;
export const landingPath = (categorySlug: string, citySlug: string) => `/${categorySlug}-terbaik-${citySlug}`;
export const RANKING_METHOD_PATH = '/metode-peringkat';
export const SEARCH_PATH = '/search';
export const COMPARE_PATH = '/compare';

export function searchPath(params: Record<string, string | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) qs.set(k, v);
  const s = qs.toString();
  return s ? `${SEARCH_PATH}?${s}` : SEARCH_PATH;
}

export const comparePath = (a: string, b: string) => `${COMPARE_PATH}?${new URLSearchParams({ a, b }).toString()}`;

/** `{web_url}` + path; the root path stays `{web_url}/` (the only URL ending in a slash). */
export function absoluteUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

export const reportPath = (slug: string) => `/laporan/${slug}`;
/** The report's JSON on the API: the same figures the report page draws. */
export const reportApiPath = (slug: string) => `/api/v1/reports/${slug}`;
