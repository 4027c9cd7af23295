import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.ts';
import { renderHeadersFile, renderNginxSnippet } from '../../src/site/header-files.ts';
import { staticHeaders } from '../../src/site/static-headers.ts';
import { pageContentSecurityPolicy, securityHeaders } from '../../src/web/security-headers.ts';
import { VIC_VERSION } from '../../src/web/vic-version.ts';
import { headersFromFile, parseHeadersFile } from '../support/headers-file.ts';

const defaults = loadEnv({}).securityHeaders;
const rules = staticHeaders(defaults);
const forPath = rules.forPath;

describe('forPath', () => {
  it('gives a VIC card its JSON-LD type, an hour of caching and the VIC version', () => {
    const h = forPath('/provider/acme-digital/vic.json');
    expect(h['Content-Type']).toBe('application/ld+json; charset=utf-8');
    expect(h['Cache-Control']).toBe('public, max-age=3600');
    expect(h['X-VIC-Version']).toBe(String(VIC_VERSION));
  });

  it('serves sitemaps, numbered parts included, as application/xml', () => {
    for (const p of ['/sitemap.xml', '/sitemap-providers.xml', '/sitemap-providers-2.xml', '/sitemap-taxonomy.xml']) {
      expect(forPath(p)['Content-Type']).toBe('application/xml; charset=utf-8');
    }
  });

  it('serves llms.txt, robots.txt and the key file as text/plain', () => {
    for (const p of ['/llms.txt', '/robots.txt', '/0123456789abcdef.txt']) {
      expect(forPath(p)['Content-Type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('treats extension-less paths and .html files as pages', () => {
    expect(forPath('/provider/acme')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(forPath('/provider/acme.html')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(forPath('/')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(forPath('/provider/acme')['X-VIC-Version']).toBeUndefined();
  });

  it('caches fingerprinted assets for a year and keeps their type', () => {
    const h = forPath('/_astro/index.abc123.css');
    expect(h['Cache-Control']).toContain('immutable');
    expect(h['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('gives pages the page security headers, shared data cross-origin and own files same-origin', () => {
    expect(forPath('/provider/acme')).toMatchObject(securityHeaders(defaults, 'page'));
    expect(forPath('/provider/acme/vic.json')).toMatchObject({ ...securityHeaders(defaults, 'shared'), 'Cross-Origin-Resource-Policy': 'cross-origin' });
    expect(forPath('/llms.txt')['Cross-Origin-Resource-Policy']).toBe('cross-origin');
    expect(forPath('/sitemap.xml')['Cross-Origin-Resource-Policy']).toBe('same-origin');
    expect(forPath('/_astro/index.abc123.css')['Cross-Origin-Resource-Policy']).toBe('same-origin');
    for (const p of ['/', '/llms.txt', '/sitemap.xml', '/favicon.svg', '/_astro/x.css', '/provider/a/vic.json']) {
      expect(forPath(p)['X-Content-Type-Options'], p).toBe('nosniff');
      expect(forPath(p)['Strict-Transport-Security'], p).toBe('max-age=63072000; includeSubDomains');
    }
  });
});

describe('the pages CSP', () => {
  const csp = pageContentSecurityPolicy(defaults);
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));

  it('allows nothing inline or evaluated, and only the own origin for what pages load', () => {
    expect(csp).not.toMatch(/unsafe-|data:|\*|https?:/);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const name of ['script-src', 'style-src', 'img-src', 'connect-src', 'base-uri', 'form-action']) expect(directives.get(name), name).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('takes extra connect-src origins and HSTS off from the settings', () => {
    const env = loadEnv({ CSP_CONNECT_SRC: 'https://api.example.com, https://*.example.org:8443', HSTS_MAX_AGE: '0' });
    expect(pageContentSecurityPolicy(env.securityHeaders)).toContain("connect-src 'self' https://api.example.com https://*.example.org:8443;");
    expect(securityHeaders(env.securityHeaders, 'page')['Strict-Transport-Security']).toBeUndefined();
    expect(renderHeadersFile(staticHeaders(env.securityHeaders))).not.toContain('Strict-Transport-Security');
    expect(renderNginxSnippet(staticHeaders(env.securityHeaders))).toContain('connect-src \'self\' https://api.example.com');
  });

  it('refuses a setting that would open the policy', () => {
    for (const bad of ["'unsafe-inline'", '*', 'https:', 'data:', 'https://a.example/path', 'javascript:alert(1)']) {
      expect(() => loadEnv({ CSP_CONNECT_SRC: bad }), bad).toThrow(/CSP_CONNECT_SRC/);
    }
    expect(() => loadEnv({ HSTS_MAX_AGE: '-1' })).toThrow(/HSTS_MAX_AGE/);
  });
});

describe('generated static-hosting rules', () => {
  it('_headers, read as Cloudflare Pages reads it, gives every kind of file what the node sends', () => {
    const file = parseHeadersFile(renderHeadersFile(rules));
    const paths = ['/', '/provider/acme', '/kategori/web', '/laporan/r-2026', '/web-terbaik-jakarta', '/404', '/favicon.svg',
      '/provider/acme/vic.json', '/sitemap.xml', '/sitemap-providers-2.xml', '/llms.txt', '/robots.txt', '/k3y-file.txt', '/_astro/Base.x1.css'];
    for (const p of paths) {
      const node = Object.fromEntries(Object.entries(forPath(p)).map(([k, v]) => [k.toLowerCase(), v]));
      // The host types files by extension; a rule sets the type only where the node's differs from it.
      const cdn = headersFromFile(file, p, { 'content-type': node['content-type']! });
      expect(cdn, p).toEqual(node);
    }
  });

  it('the nginx snippet carries the same headers and proxies the dynamic routes', () => {
    const conf = renderNginxSnippet(rules);
    expect(conf).toContain('default_type "application/ld+json; charset=utf-8";');
    expect(conf).toContain(`add_header X-VIC-Version "${VIC_VERSION}" always;`);
    expect(conf).toContain(`add_header Content-Security-Policy "${pageContentSecurityPolicy(defaults)}" always;`);
    expect(conf).toContain('location ^~ /api/');
    expect(conf).toContain('try_files /overlay$uri /base$uri /overlay$uri.html /base$uri.html =404;');
  });
});

describe('docs/nginx-static.conf', () => {
  it('is the snippet the rules generate with the default settings (node scripts/header-rules.ts nginx > docs/nginx-static.conf)', () => {
    expect(fs.readFileSync('docs/nginx-static.conf', 'utf8')).toBe(renderNginxSnippet(rules));
  });
});

describe('docs/nginx-lb.conf', () => {
  it("answers its own 429 with the node's shared security headers (HSTS is the TLS front's)", () => {
    const conf = fs.readFileSync('docs/nginx-lb.conf', 'utf8');
    const location = conf.slice(conf.indexOf('location @directory_rate_limited {'), conf.indexOf('return 429'));
    const added = Object.fromEntries([...location.matchAll(/add_header ([\w-]+) "([^"]*)" always;/g)].map(([, name, value]) => [name, value]));
    const { 'Strict-Transport-Security': hsts, ...shared } = securityHeaders(defaults, 'shared');
    expect(hsts).toBeDefined();
    expect(added).toEqual({ 'Access-Control-Allow-Origin': '*', ...shared });
  });
});

describe('docs/security.md', () => {
  const doc = fs.readFileSync('docs/security.md', 'utf8');
  it('says what every security header does, with the values sent', () => {
    const names = new Set([...Object.keys(securityHeaders(defaults, 'page')), ...Object.keys(securityHeaders(defaults, 'shared'))]);
    for (const name of names) expect(doc, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(doc).toContain(pageContentSecurityPolicy(defaults).split('; ').slice(0, 4).join('; '));
    expect(doc).toContain(securityHeaders(defaults, 'shared')['Content-Security-Policy']);
  });

  it('and docs/settings.md list the settings', () => {
    const settings = fs.readFileSync('docs/settings.md', 'utf8');
    for (const name of ['CSP_CONNECT_SRC', 'HSTS_MAX_AGE']) {
      expect(doc, name).toContain(`| \`${name}\` |`);
      expect(settings, name).toContain(`| \`${name}\` |`);
    }
  });
});
