/**
 * The security headers of every response, by what the response is for
 * (docs/security.md). The node server adds them at its edge (src/server/node-server.ts)
 * and the static-hosting rules (src/site/static-headers.ts: the CDN's `_headers`,
 * the nginx snippet) are generated from the same values, so a page carries the same
 * headers whichever of the three served it.
 *
 * - `page`: an HTML document of the site. A strict CSP: everything from the site's
 *   own origin, nothing inline. The pages ship no script and no inline style (the one
 *   stylesheet is a file, `inlineStylesheets: 'never'`); their JSON-LD blocks are data
 *   (`type="application/ld+json"` never runs), which CSP does not govern.
 * - `shared`: what other origins read (the API, /mcp, VIC cards, llms.txt): it keeps
 *   `Access-Control-Allow-Origin: *` and says `Cross-Origin-Resource-Policy: cross-origin`.
 * - `own`: the site's own files (stylesheets, the icon, sitemaps): same-origin.
 *
 * Non-pages get a CSP that allows nothing, so a JSON or SVG opened as a document runs
 * and loads nothing.
 */
import type { SecurityHeaderSettings } from '../env.ts';

export type ResponseKind = 'page' | 'shared' | 'own';

/** Browser features the site never uses, turned off for its pages and anything they embed. */
const UNUSED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
];

export const PERMISSIONS_POLICY = UNUSED_FEATURES.map((f) => `${f}=()`).join(', ');

/** The CSP of everything that is not a page: nothing may load or run, nothing may frame it. */
const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The pages' CSP. `default-src 'none'` first, then each kind of resource the pages
 * use allowed from 'self' only; `connect-src` takes the operator's extra origins.
 */
export function pageContentSecurityPolicy(settings: SecurityHeaderSettings): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'"]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...settings.connectSrc]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

function hstsValue(settings: SecurityHeaderSettings): string | undefined {
  return settings.hstsMaxAge > 0 ? `max-age=${settings.hstsMaxAge}; includeSubDomains` : undefined;
}

/** The security headers of one kind of response, in the order they are written. */
export function securityHeaders(settings: SecurityHeaderSettings, kind: ResponseKind): Record<string, string> {
  const headers: Record<string, string> =
    kind === 'page'
      ? {
          'Content-Security-Policy': pageContentSecurityPolicy(settings),
          'X-Content-Type-Options': 'nosniff',
          'X-Frame-Options': 'DENY',
          'Referrer-Policy': 'strict-origin-when-cross-origin',
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Cross-Origin-Resource-Policy': 'same-origin',
          'Permissions-Policy': PERMISSIONS_POLICY,
        }
      : {
          'Content-Security-Policy': RESOURCE_CSP,
          'X-Content-Type-Options': 'nosniff',
          'X-Frame-Options': 'DENY',
          'Cross-Origin-Resource-Policy': kind === 'shared' ? 'cross-origin' : 'same-origin',
        };
  const hsts = hstsValue(settings);
  if (hsts) headers['Strict-Transport-Security'] = hsts;
  return headers;
}
