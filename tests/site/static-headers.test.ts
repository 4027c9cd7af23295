import { describe, expect, it } from 'vitest';
import { headersForStaticPath, renderHeadersFile, renderNginxSnippet } from '../../src/site/static-headers.ts';
import { VIC_VERSION } from '../../src/web/vic-version.ts';

describe('headersForStaticPath', () => {
  it('gives a VIC card its JSON-LD type, an hour of caching and the VIC version', () => {
    const h = headersForStaticPath('/provider/acme-digital/vic.json');
    expect(h['Content-Type']).toBe('application/ld+json; charset=utf-8');
    expect(h['Cache-Control']).toBe('public, max-age=3600');
    expect(h['X-VIC-Version']).toBe(String(VIC_VERSION));
  });

  it('serves sitemaps, numbered parts included, as application/xml', () => {
    for (const p of ['/sitemap.xml', '/sitemap-providers.xml', '/sitemap-providers-2.xml', '/sitemap-taxonomy.xml']) {
      expect(headersForStaticPath(p)['Content-Type']).toBe('application/xml; charset=utf-8');
    }
  });

  it('serves llms.txt, robots.txt and the key file as text/plain', () => {
    for (const p of ['/llms.txt', '/robots.txt', '/0123456789abcdef.txt']) {
      expect(headersForStaticPath(p)['Content-Type']).toBe('text/plain; charset=utf-8');
    }
  });

  it('treats extension-less paths and .html files as pages', () => {
    expect(headersForStaticPath('/provider/acme')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(headersForStaticPath('/provider/acme.html')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(headersForStaticPath('/')['Content-Type']).toBe('text/html; charset=utf-8');
    expect(headersForStaticPath('/provider/acme')['X-VIC-Version']).toBeUndefined();
  });

  it('caches fingerprinted assets for a year and keeps their type', () => {
    const h = headersForStaticPath('/_astro/index.abc123.css');
    expect(h['Cache-Control']).toContain('immutable');
    expect(h['Content-Type']).toBe('text/css; charset=utf-8');
  });
});

describe('generated static-hosting rules', () => {
  it('_headers carries the VIC rule', () => {
    const text = renderHeadersFile();
    expect(text).toContain('/provider/*/vic.json\n  Content-Type: application/ld+json; charset=utf-8');
    expect(text).toContain(`X-VIC-Version: ${VIC_VERSION}`);
  });

  it('the nginx snippet carries the same headers and proxies the dynamic routes', () => {
    const conf = renderNginxSnippet();
    expect(conf).toContain('default_type "application/ld+json; charset=utf-8";');
    expect(conf).toContain(`add_header X-VIC-Version "${VIC_VERSION}" always;`);
    expect(conf).toContain('location ^~ /api/');
    expect(conf).toContain('try_files $uri $uri.html =404;');
  });
});

describe('docs/nginx-static.conf', () => {
  it('is the snippet the rules generate (regenerate with renderNginxSnippet when rules change)', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync('docs/nginx-static.conf', 'utf8')).toBe(renderNginxSnippet());
  });
});
