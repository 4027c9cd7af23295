/**
 * Sitemap XML (sitemaps.org protocol): urlsets of at most `maxUrls` URLs
 * (SITEMAP_MAX_URLS, src/env.ts: at most the protocol's 50,000), split
 * into numbered files past that (sitemap-providers.xml, sitemap-providers-2.xml,
 * ...), and the index listing every file. `<lastmod>` comes from the data, never
 * from the clock, so two builds of the same snapshot are byte-identical.
 */
export const SITEMAP_KINDS = ['providers', 'vic', 'taxonomy'] as const;
export type SitemapKind = (typeof SITEMAP_KINDS)[number];

export interface SitemapEntry {
  loc: string;
  lastmod?: string | null;
}

/** Number of files a kind needs; an empty list still gets one (empty) file. */
export const partCount = (total: number, maxUrls: number) => Math.max(1, Math.ceil(total / maxUrls));

/** "providers" + part 1 -> "sitemap-providers.xml"; part 2 -> "sitemap-providers-2.xml". */
export const sitemapFileName = (kind: SitemapKind, part: number) =>
  part === 1 ? `sitemap-${kind}.xml` : `sitemap-${kind}-${part}.xml`;

/** The route param of src/pages/sitemap-[part].xml.ts for a file: "providers", "providers-2". */
export const sitemapParam = (kind: SitemapKind, part: number) => (part === 1 ? kind : `${kind}-${part}`);

export function parseSitemapParam(param: string): { kind: SitemapKind; part: number } | null {
  const m = /^([a-z]+)(?:-([2-9]|[1-9][0-9]+))?$/.exec(param);
  if (!m || !(SITEMAP_KINDS as readonly string[]).includes(m[1]!)) return null;
  return { kind: m[1] as SitemapKind, part: m[2] ? Number(m[2]) : 1 };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** W3C datetime without milliseconds (valid xsd:dateTime), or null when unparseable. */
export function w3cDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Latest of several ISO dates (null-safe), as w3cDate writes it: compared as instants, formatted once. */
export function latest(dates: (string | null | undefined)[]): string | null {
  let best = Number.NEGATIVE_INFINITY;
  let bestDate: string | null = null;
  for (const d of dates) {
    if (!d) continue;
    const t = Date.parse(d);
    if (t > best) [best, bestDate] = [t, d];
  }
  return w3cDate(bestDate);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function entryXml(tag: 'url' | 'sitemap', e: SitemapEntry): string {
  const lastmod = w3cDate(e.lastmod);
  return `<${tag}><loc>${xmlEscape(e.loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</${tag}>\n`;
}

export function renderUrlset(entries: Iterable<SitemapEntry>): string {
  let body = '';
  for (const e of entries) body += entryXml('url', e);
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${body}</urlset>\n`;
}

export function renderSitemapIndex(entries: SitemapEntry[]): string {
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${entries.map((e) => entryXml('sitemap', e)).join('')}</sitemapindex>\n`;
}
