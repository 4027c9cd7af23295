/**
 * Header rules for the pre-rendered files in dist/client, written once and used
 * three ways so the CDN and nginx paths match the Node path (docs/security.md):
 *   - scripts/serve.ts serves every static file with `forPath()`;
 *   - the build writes dist/client/_headers (src/site/header-files.ts);
 *   - docs/nginx-static.conf is the nginx snippet rendered from the same rules.
 * Each rule names its kind of response, which brings the security headers of
 * src/web/security-headers.ts; everything no rule names is a page.
 */
import type { SecurityHeaderSettings } from '../env.ts';
import { securityHeaders, type ResponseKind } from '../web/security-headers.ts';
import { VIC_VERSION } from '../web/vic-version.ts';

export interface StaticHeaderRule {
  /** What the rule is for (a comment in the generated files). */
  name: string;
  /** Matches a URL pathname (or the file path under dist/client, which has the same shape). */
  test: RegExp;
  /** The same paths in `_headers` syntax (`*` matches any characters). */
  headersFilePatterns: string[];
  /** The same paths as an nginx location (regex, case-sensitive). */
  nginxLocation: string;
  kind: Exclude<ResponseKind, 'page'>;
  /** The rule's own headers; the kind's security headers come after them. */
  headers: Record<string, string>;
}

const HOUR = 'public, max-age=3600';
const PAGE_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** Order matters: the first matching rule wins, most specific first. */
const STATIC_HEADER_RULES: readonly StaticHeaderRule[] = [
  {
    name: 'VIC card (provider intelligence card)',
    test: /^\/provider\/[^/]+\/vic\.json$/,
    headersFilePatterns: ['/provider/*/vic.json'],
    nginxLocation: '~ ^/provider/[^/]+/vic\\.json$',
    kind: 'shared',
    headers: {
      'Content-Type': 'application/ld+json; charset=utf-8',
      'Cache-Control': HOUR,
      'X-VIC-Version': String(VIC_VERSION),
      'Access-Control-Allow-Origin': '*',
    },
  },
  {
    name: 'sitemaps (index and numbered parts)',
    test: /^\/sitemap[a-z0-9-]*\.xml$/,
    headersFilePatterns: ['/sitemap*.xml'],
    nginxLocation: '~ ^/sitemap[a-z0-9-]*\\.xml$',
    kind: 'own',
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': HOUR },
  },
  {
    name: 'llms.txt, robots.txt and the IndexNow key file',
    test: /^\/[A-Za-z0-9-]+\.txt$/,
    headersFilePatterns: ['/*.txt'],
    nginxLocation: '~ ^/[A-Za-z0-9-]+\\.txt$',
    kind: 'shared',
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': HOUR,
      'Access-Control-Allow-Origin': '*',
    },
  },
  {
    name: 'fingerprinted build assets',
    test: /^\/_astro\//,
    headersFilePatterns: ['/_astro/*'],
    nginxLocation: '^~ /_astro/',
    kind: 'own',
    headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
  },
];

const MIME_BY_EXTENSION: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
};

function extensionOf(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot).toLowerCase() : '';
}

/** The rules with every header they send, for one set of settings. */
export interface StaticHeaders {
  /** Pages, and any other file no rule names: Cache-Control and the page security headers (no Content-Type). */
  page: Readonly<Record<string, string>>;
  /** Each rule with its own headers followed by its kind's security headers. */
  rules: readonly { rule: StaticHeaderRule; headers: Readonly<Record<string, string>> }[];
  /**
   * Every header of a static file. `pathname` is the URL path (`/provider/acme`,
   * `/provider/acme/vic.json`) or the file path under dist/client
   * (`/provider/acme.html`): pages are files without a trailing slash
   * (build.format 'file'), so both shapes answer the same.
   */
  forPath: (pathname: string) => Record<string, string>;
}

export function staticHeaders(settings: SecurityHeaderSettings): StaticHeaders {
  const page = { 'Cache-Control': PAGE_CACHE_CONTROL, ...securityHeaders(settings, 'page') };
  const rules = STATIC_HEADER_RULES.map((rule) => ({ rule, headers: { ...rule.headers, ...securityHeaders(settings, rule.kind) } }));
  const forPath = (pathname: string): Record<string, string> => {
    const found = rules.find((r) => r.rule.test.test(pathname));
    const ext = extensionOf(pathname);
    const type = found?.headers['Content-Type'] ?? MIME_BY_EXTENSION[ext === '' ? '.html' : ext] ?? 'application/octet-stream';
    return { 'Content-Type': type, ...(found ? found.headers : page) };
  };
  return { page, rules, forPath };
}
