/**
 * /llms.txt in the llmstxt.org format: an H1, a blockquote summary, a paragraph,
 * H2 sections of link lists, and an "Optional" section a reader may skip. Every
 * link is absolute (PUBLIC_WEB_URL for the site, PUBLIC_API_URL for the API) and
 * answers: URL patterns are written in the text, next to a real example.
 */
import { absoluteUrl, providerPath, RANKING_METHOD_PATH, reportApiPath, reportPath, SEARCH_PATH, vicPath } from '../web/urls.ts';
import { indexNowKeyPath } from './indexnow.ts';

export interface LlmsInput {
  webUrl: string;
  apiUrl: string;
  indexNowKey: string;
  /** Every sitemap file name, index excluded (e.g. sitemap-providers.xml, sitemap-providers-2.xml). */
  sitemapFiles: string[];
  /** A published provider to show the URL patterns with, or null for an empty directory. */
  exampleSlug: string | null;
  /** A landing page path, or null when there is none. */
  exampleLandingPath: string | null;
  publishedProviders: number;
  /** The snapshot's market reports: each has a page with charts and the same figures on the API. */
  reports: { slug: string; title: string }[];
}

const item = (title: string, url: string, note: string) => `- [${title}](${url}): ${note}`;

export function renderLlmsTxt(input: LlmsInput): string {
  const web = (p: string) => absoluteUrl(input.webUrl, p);
  const api = (p: string) => absoluteUrl(input.apiUrl, p);
  const slug = input.exampleSlug;
  const lines: string[] = [
    '# Direktori Penyedia Jasa',
    '',
    `> Direktori publik ${input.publishedProviders} penyedia jasa (agensi dan konsultan) di Indonesia, dengan tingkat kepercayaan, rating, kemampuan dan asal data setiap profil. Hanya penyedia yang disetujui dan dipublikasikan yang tampil. Public directory of service providers in Indonesia; read-only JSON API, JSON-LD cards (VIC) and sitemaps.`,
    '',
    `Provider pages live at ${web('/provider/{slug}')} and each provider's machine-readable card (VIC, application/ld+json) at ${web('/provider/{slug}/vic.json')}. The REST API under ${api('/api/v1')} needs no key; the AI endpoint and MCP need an X-API-Key header. Search uses hybrid ranking (keyword + vector, Reciprocal Rank Fusion). No placement is paid.`,
    '',
    'A provider with totalReviews 0 has no rating yet: its overallRating reads "0.00" (null on the VIC card) and is not a rating of 0; report averages and rating distributions count rated providers only and give the unrated ones as a separate count (providersWithoutReviews). City and province names are given in one spelling per place.',
    '',
    '## Penyedia (providers)',
    '',
  ];
  if (slug) {
    lines.push(
      item('Provider page', web(providerPath(slug)), 'canonical human page of one provider; pattern /provider/{slug}'),
      item('Provider card (VIC)', web(vicPath(slug)), 'JSON-LD card of one provider; pattern /provider/{slug}/vic.json'),
    );
  }
  lines.push(
    item('Search page', web(`${SEARCH_PATH}?q=jasa`), 'server-rendered search for people; parameter q'),
    item('Ranking method', web(RANKING_METHOD_PATH), 'how lists are ordered; no placement is paid'),
  );
  if (input.exampleLandingPath) {
    lines.push(item('Landing page', web(input.exampleLandingPath), 'best providers of a category in a city; pattern /{categorySlug}-terbaik-{citySlug}'));
  }
  if (input.reports.length) {
    lines.push('', '## Laporan (market reports)', '');
    for (const r of input.reports) {
      lines.push(item(r.title, web(reportPath(r.slug)), 'report page: providers by city, rating, trust level, rates and budgets as charts with data tables; pattern /laporan/{slug}'));
    }
  }
  lines.push(
    '',
    '## API',
    '',
    item('Provider list', api('/api/v1/providers'), 'paginated list; filters city, location, categorySlug, minTrustLevel, sort'),
    item('Provider search', api('/api/v1/search?q=website'), 'hybrid search; q required (2-200 characters)'),
    item('Categories', api('/api/v1/categories'), 'active categories with their children'),
    item('Programmatic parameters', api('/api/v1/discovery/programmatic-params'), 'category and city combinations'),
    item('OpenAPI document', api('/api/v1/openapi.json'), 'the REST API described as OpenAPI'),
    ...input.reports.map((r) => item(`Report API: ${r.title}`, api(reportApiPath(r.slug)), 'the same figures as the report page, as JSON')),
    item('AI endpoint', api('/api/ai/recommend'), 'GET with q (and city, limit); needs X-API-Key'),
    item('MCP endpoint', api('/mcp'), 'JSON-RPC 2.0 tools search_providers, get_provider_card, compare_providers; POST needs X-API-Key'),
    '',
    '## Sitemaps',
    '',
    item('Sitemap index', web('/sitemap.xml'), 'lists every sitemap file'),
    ...input.sitemapFiles.map((f) => item(f, web(`/${f}`), sitemapNote(f))),
    '',
    '## Optional',
    '',
    item('IndexNow key file', web(indexNowKeyPath(input.indexNowKey)), 'search-index key (IndexNow)'),
    item('robots.txt', web('/robots.txt'), 'crawl rules'),
    item('Home', web('/'), 'the directory home page'),
    '',
  );
  return lines.join('\n');
}

function sitemapNote(file: string): string {
  if (file.startsWith('sitemap-providers')) return 'published provider pages';
  if (file.startsWith('sitemap-vic')) return 'published VIC cards';
  return 'active categories, subcategories, landing pages and report pages';
}

export function renderRobotsTxt(webUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/ai/', 'Disallow: /mcp', '', `Sitemap: ${absoluteUrl(webUrl, '/sitemap.xml')}`, ''].join('\n');
}
