/**
 * 10,000 hostile inputs to each server-rendered page (/search and /compare),
 * over HTTP against the real server (scripts/serve.ts with the Astro handler of
 * the fixture site's `astro build`), with the values of tests/http/hostile.ts in
 * q, every filter, page, sort, the compare slugs, repeated parameters and an
 * unpublished slug paired with a published one.
 *
 * What a page must answer: 200 with an HTML page (the form, results or none);
 * a refused input is an HTML page too, with the reason in the notice
 * (`role="alert"`): 400 for a too-short q or an incomplete pair, 404 for a slug
 * that is not published. Only a URL over 16 KB is refused before any route runs
 * (431), and that refusal is the API's error envelope for every path. No answer
 * is a 5xx, links an unpublished provider, compares one, holds a dashboard
 * marker, or carries more `<script` tags outside attribute values than the page
 * has without input (the hostile text is escaped, never markup).
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeHostile, hostileValues, type HostileValue } from '../http/hostile.ts';
import { readProviders } from '../ops/dataset-edits.ts';
import { startNode, type Node } from '../resilience/fixture.ts';
import { API_URL, builtSite, INDEXNOW_KEY, WEB_URL } from '../site/fixture/built-site.ts';
import { FORBIDDEN_MARKERS, HOSTILE_SLUG } from '../site/fixture/hostile.ts';
import { recordFigures, sendAll, type Answer, type LoadRequest } from './fixture.ts';

const PER_PAGE = 10_000;
const LEAK = new RegExp(
  ['MODNOTE: ', 'INTERNAL: ', FORBIDDEN_MARKERS.moderationNote, FORBIDDEN_MARKERS.internalStatus, FORBIDDEN_MARKERS.unpublishedName, FORBIDDEN_MARKERS.hiddenRateFormatted].join('|'),
);

let node: Node;
let unpublished: string[] = [];
let published: string[] = [];
const scriptTags = new Map<string, number>();
/** `<script` tags outside quoted attribute values (inside one, where `"` is escaped, `<` is plain text). */
const countScripts = (html: string) => html.replace(/="[^"]*"/g, '=""').split('<script').length - 1;

beforeAll(async () => {
  const site = await builtSite();
  const providers = readProviders(path.join(site.dir, 'dataset'));
  const isPublished = (p: (typeof providers)[number]) => p.submissionStatus === 'approved' && p.publishedAt !== null;
  unpublished = providers.filter((p) => !isPublished(p)).map((p) => p.slug);
  published = providers.filter(isPublished).map((p) => p.slug);
  node = await startNode({
    DIRECTORY_DB: site.dbFile,
    STATIC_ROOT: site.clientDir,
    ASTRO_SERVER_ENTRY: site.serverEntry,
    PUBLIC_WEB_URL: WEB_URL,
    PUBLIC_API_URL: API_URL,
    INDEXNOW_KEY,
    LOG_LEVEL: 'warn',
  });
  for (const page of ['/search', '/compare']) scriptTags.set(page, countScripts(await (await fetch(node.url + page)).text()));
});

afterAll(async () => {
  await node?.stop();
});

/** Five shapes in turn: the hostile value where a person or a crawler could put it. */
function searchRequest(v: string, i: number): LoadRequest {
  switch (i % 5) {
    case 0: return { path: `/search?q=${v}` };
    case 1: return { path: `/search?q=toko&categorySlug=${v}&location=${v}&city=${v}&industry=${v}&businessSize=${v}&projectBudget=${v}&minTrustLevel=${v}&minRating=${v}` };
    case 2: return { path: `/search?q=${v}&page=${v}&sort=${v}&limit=${v}` };
    case 3: return { path: `/search?q=${v}&q=toko&page=2&page=${v}&sort=rating&sort=${v}` };
    default: return { path: `/search?${v}=${v}&q=jasa%20${v}` };
  }
}

function compareRequest(v: string, i: number): LoadRequest {
  const pub = published[i % published.length]!;
  switch (i % 5) {
    case 0: return { path: `/compare?a=${v}&b=${v}x` };
    case 1: return { path: `/compare?a=${pub}&b=${v}` };
    case 2: return { path: `/compare?a=${unpublished[i % unpublished.length]}&b=${pub}&c=${v}` }; // must stay 404
    case 3: return { path: `/compare?a=${pub}&a=${v}&b=${pub === HOSTILE_SLUG ? published[0] : HOSTILE_SLUG}&b=${v}&slugA=${v}&slugB=${v}` }; // the first of each counts: a comparison
    default: return { path: `/compare?b=${v}` };
  }
}

interface Tally {
  sent: number;
  serverErrors: number;
  improper4xx: number;
  leaks: number;
  injected: number;
  byStatus: Record<number, number>;
  samples: string[];
}

const isHtml = (a: Answer) => a.contentType?.startsWith('text/html') === true && a.body.includes('<h1>') && a.body.trimEnd().endsWith('</html>');

function isEnvelope(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    return Object.keys(parsed).join() === 'error' && typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string';
  } catch {
    return false;
  }
}

function judge(page: string, a: Answer, t: Tally): void {
  t.byStatus[a.status] = (t.byStatus[a.status] ?? 0) + 1;
  const bad = (kind: 'serverErrors' | 'improper4xx' | 'leaks' | 'injected') => {
    t[kind]++;
    if (t.samples.length < 5) t.samples.push(`${kind}: ${a.request.path.slice(0, 120)} -> ${a.status}: ${a.body.slice(0, 160)}`);
  };
  if (a.status >= 500) return bad('serverErrors');
  const linked = [...a.body.matchAll(/href="\/provider\/([^"/?#]+)/g)].map((m) => decodeURIComponent(m[1]!));
  const comparedUnpublished = page === '/compare' && a.status === 200 && unpublished.some((slug) => a.request.path.includes(`a=${slug}&`));
  if (LEAK.test(a.body) || linked.some((slug) => unpublished.includes(slug)) || comparedUnpublished) bad('leaks');
  if (a.status === 431) {
    if (!isEnvelope(a.body)) bad('improper4xx');
    return;
  }
  if (!isHtml(a)) return bad(a.status >= 400 ? 'improper4xx' : 'injected');
  if (a.status >= 400 && (![400, 404].includes(a.status) || !a.body.includes('role="alert"'))) bad('improper4xx');
  if (countScripts(a.body) > scriptTags.get(page)!) bad('injected');
}

it(`answers ${PER_PAGE.toLocaleString('en')} hostile inputs per server-rendered page without a 5xx, a bare refusal or a leak`, async () => {
  const pages: [string, (v: string, i: number) => LoadRequest][] = [
    ['/search', searchRequest],
    ['/compare', compareRequest],
  ];
  const figures: Record<string, Tally> = {};
  for (const [n, [page, request]] of pages.entries()) {
    const values: HostileValue[] = hostileValues(PER_PAGE, 2000 + n);
    const tally: Tally = { sent: PER_PAGE, serverErrors: 0, improper4xx: 0, leaks: 0, injected: 0, byStatus: {}, samples: [] };
    const load = await sendAll(node.url, 8, values.map((v, i) => request(encodeHostile(v), i)), (a) => judge(page, a, tally));
    expect(load.failures, load.errorSamples.join('\n')).toBe(0);
    expect(load.answered).toBe(PER_PAGE);
    figures[page] = tally;
  }
  recordFigures('hostile inputs per page', {
    perPage: PER_PAGE,
    byPage: Object.fromEntries(Object.entries(figures).map(([page, { samples: _samples, ...t }]) => [page, t])),
  });
  for (const [page, t] of Object.entries(figures)) {
    // Every shape reached the page: some answers are rendered results or comparisons, some refusals.
    expect(t.byStatus[200], page).toBeGreaterThan(0);
    expect((t.byStatus[400] ?? 0) + (t.byStatus[404] ?? 0), page).toBeGreaterThan(0);
    expect({ page, serverErrors: t.serverErrors, improper4xx: t.improper4xx, leaks: t.leaks, injected: t.injected, samples: t.samples }).toEqual({
      page,
      serverErrors: 0,
      improper4xx: 0,
      leaks: 0,
      injected: 0,
      samples: [],
    });
  }
}, 400_000);
