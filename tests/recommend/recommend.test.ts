/**
 * GET /api/ai/recommend in-process (handleRequest, the same function the server
 * runs) over a real snapshot and a real KEYS_DB, with the rate limiter's clock
 * pinned inside one window.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeTokens } from '../../src/text/tokens.ts';
import { handleRequest } from '../../src/server/app.ts';
import { createKeyServices, type KeyServices } from '../../src/server/auth/services.ts';
import type { AppContext } from '../../src/server/context.ts';
import { testAppContext } from '../support/app-context.ts';
import { buildTestSnapshot } from '../keys/fixture.ts';

let services: KeyServices;
let app: AppContext;
let db: Database.Database;
let expired: string;
let revoked: string;
const now = Date.UTC(2026, 0, 1, 12, 0, 5);

beforeAll(async () => {
  const { dir, dbFile } = await buildTestSnapshot();
  services = createKeyServices({ keysDb: path.join(dir, 'keys.db'), clock: () => now });
  app = testAppContext({ DIRECTORY_DB: dbFile }, { keyServices: services });
  expired = (await services.keys.create({ tier: 'enterprise', expiresAt: '2020-01-01T00:00:00.000Z' })).key;
  revoked = (await services.keys.create({ tier: 'enterprise', name: 'to revoke' })).key;
  await services.keys.revoke(revoked);
  db = new Database(dbFile, { readonly: true });
});

afterAll(async () => {
  db?.close();
  await app?.close();
});

async function call(query: string, headers: Record<string, string> = {}) {
  const response = (await handleRequest(new Request(`http://test/api/ai/recommend${query}`, { headers }), app))!;
  return { status: response.status, headers: response.headers, body: (await response.json()) };
}

/** A fresh enterprise key, so counting tests do not spend another test's budget. */
const freshKey = async (tier: 'regular' | 'enterprise' = 'enterprise') => (await services.keys.create({ tier })).key;

describe('key check', () => {
  it('401 API_KEY_REQUIRED without a key: exact envelope, no details, no WWW-Authenticate, no rate headers', async () => {
    const r = await call('?q=website');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: { code: 'API_KEY_REQUIRED', message: expect.any(String) } });
    expect(r.headers.get('www-authenticate')).toBeNull();
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('401 API_KEY_INVALID for a wrong, expired or revoked key, even with bad parameters', async () => {
    for (const key of ['pdk_live_' + 'x'.repeat(43), 'garbage', expired, revoked]) {
      const r = await call('?limit=0', { 'X-API-Key': key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: 'API_KEY_INVALID', message: expect.any(String) } });
      expect(r.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('accepts Authorization: Bearer as an alias', async () => {
    const r = await call('?q=website', { Authorization: `Bearer ${await freshKey()}` });
    expect(r.status).toBe(200);
  });
});

describe('parameters (after the key, counted)', () => {
  it.each([
    ['', 'QUERY_REQUIRED'],
    ['?q=%20%20', 'QUERY_REQUIRED'],
    ['?q=a', 'QUERY_TOO_SHORT'],
    [`?q=${'é'.repeat(201)}`, 'QUERY_TOO_LONG'],
    ['?q=website&limit=0', 'INVALID_PARAM'],
    ['?q=website&limit=11', 'INVALID_PARAM'],
    ['?q=website&limit=abc', 'INVALID_PARAM'],
    ['?q=website&limit=2.5', 'INVALID_PARAM'],
  ])('%s -> 400 %s with details null and rate headers', async (query, code) => {
    const key = await freshKey('regular');
    const r = await call(query, { 'X-API-Key': key });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code, message: expect.any(String), details: null } });
    expect(r.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  it('counts q in code points after trimming: 200 emoji pass', async () => {
    const r = await call(`?q=${encodeURIComponent(`  ${'🙂'.repeat(200)}  `)}`, { 'X-API-Key': await freshKey() });
    expect(r.status).toBe(200);
  });
});

describe('answers', () => {
  it('meta has exactly the spec fields; items are search items plus reason', async () => {
    const r = await call('?q=jasa%20SEO&limit=3', { 'X-API-Key': await freshKey() });
    expect(r.status).toBe(200);
    // The spec's fields plus `understood` (what was read from q).
    expect(Object.keys(r.body.meta).sort()).toEqual(['city', 'limit', 'q', 'rrf', 'source', 'tookMs', 'total', 'understood'].sort());
    expect(r.body.meta).toMatchObject({ q: 'jasa SEO', city: null, limit: 3, source: 'hybrid' });
    expect(Object.keys(r.body.meta.rrf).sort()).toEqual(['k', 'keywordCandidates', 'mergedCandidates', 'vectorCandidates']);
    expect(r.body.meta.rrf.k).toBe(60);
    expect(Number.isInteger(r.body.meta.tookMs)).toBe(true);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.length).toBeLessThanOrEqual(3);
    for (const item of r.body.data) {
      expect(item).toHaveProperty('slug');
      expect(item.search).toMatchObject({ source: 'hybrid' });
      expect(typeof item.reason).toBe('string');
    }
  });

  it('limit defaults to 5; city is echoed and filters', async () => {
    const r = await call('?q=website&city=Bandung', { 'X-API-Key': await freshKey() });
    expect(r.body.meta.limit).toBe(5);
    expect(r.body.meta.city).toBe('Bandung');
    expect(r.body.data.length).toBeGreaterThan(0);
    for (const item of r.body.data) expect(item.city.toLowerCase()).toBe('bandung');
  });

  it('applies the city it reads from the text; the category it reads leads, its family next, others only fill', async () => {
    const r = await call(`?q=${encodeURIComponent('bikin aplikasi android di Jaksel')}&limit=10`, { 'X-API-Key': await freshKey() });
    expect(r.body.meta.city).toBeNull();
    expect(r.body.meta.understood.categorySlug).toBe('android');
    expect(r.body.data.length).toBeGreaterThan(0);
    const rank = r.body.data.map((item: any) => {
      expect(item.city).toBe('Jakarta Selatan');
      const cats = db
        .prepare('SELECT c.slug, p.slug AS parent FROM provider_categories pc JOIN categories c ON c.id = pc.category_id LEFT JOIN categories p ON p.id = c.parent_id JOIN providers pr ON pr.rowid = pc.provider_rowid WHERE pr.slug = ?')
        .all(item.slug) as { slug: string; parent: string | null }[];
      if (cats.some((c) => c.slug === 'android')) return 0;
      return cats.some((c) => c.slug === 'mobile-app-development' || c.parent === 'mobile-app-development') ? 1 : 2;
    });
    expect(rank[0]).toBe(0);
    expect(rank).toEqual([...rank].sort((a: number, b: number) => a - b));
  });

  const QUERIES = [
    'bikin website toko online di Bandung budget 50 juta',
    'need a mobile app developer in Surabaya under $5k',
    'jasa SEO di Jaksel',
    'UI/UX design agency',
    'konsultan IT untuk transformasi digital',
  ];

  it.each(QUERIES)('reasons are true of each provider and differ within the answer: %s', async (q) => {
    const r = await call(`?q=${encodeURIComponent(q)}&limit=10`, { 'X-API-Key': await freshKey() });
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    const reasons: string[] = r.body.data.map((i: any) => i.reason);
    expect(new Set(reasons).size).toBe(reasons.length);
    for (const item of r.body.data) checkReason(item.slug, item.reason);
  });

  it('the reasons above named matched words and where (checked against the snapshot)', () => {
    expect(phrasesChecked).toBeGreaterThan(5);
  });
});

let phrasesChecked = 0;

/** Every claim of a reason, checked against the snapshot row. */
function checkReason(slug: string, reason: string) {
  const row = db.prepare('SELECT * FROM published_providers WHERE slug = ?').get(slug) as any;
  expect(row, slug).toBeDefined();
  expect(reason.startsWith(`${row.company_name}:`)).toBe(true);
  if (row.city) expect(reason).toMatch(new RegExp(`(based in|berlokasi di) ${row.city}`));
  expect(reason).toContain(`trust level ${row.trust_level}/5`);
  if (row.total_reviews > 0) expect(reason).toMatch(new RegExp(`${row.overall_rating.toFixed(2)} (from|dari) ${row.total_reviews} `));
  const proofs = (db.prepare('SELECT count(*) AS n FROM public_proofs WHERE provider_rowid = ?').get(row.rowid) as { n: number }).n;
  if (proofs > 0) expect(reason).toMatch(new RegExp(`${proofs} (public|bukti publik)`));
  else expect(reason).toMatch(/no public proofs yet|belum ada bukti publik/);

  const categories = (
    db.prepare('SELECT c.name FROM provider_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.provider_rowid = ?').all(row.rowid) as { name: string }[]
  ).map((c) => c.name);
  const fieldText: Record<string, string> = {
    name: row.company_name, nama: row.company_name,
    tagline: row.tagline,
    description: row.description, deskripsi: row.description,
    tags: [...JSON.parse(row.capability_tags), ...JSON.parse(row.industry_focus)].join(' | '),
    tag: [...JSON.parse(row.capability_tags), ...JSON.parse(row.industry_focus)].join(' | '),
    category: categories.join(' | '), kategori: categories.join(' | '),
  };
  // “phrase” in its tagline and tags / “phrase” di tagline dan tag
  for (const m of reason.matchAll(/“([^”]+)” (?:in its|di) ([a-z, ]+?)(?=[;,.]? ?(?:“|;|$|\.))/g)) {
    const phrase = normalizeTokens(m[1]!).join(' ');
    const fields = m[2]!.split(/,\s*|\s+(?:and|dan)\s+/).map((f) => f.trim()).filter((f) => f in fieldText);
    expect(fields.length, `${reason}`).toBeGreaterThan(0);
    for (const f of fields) expect(` ${normalizeTokens(fieldText[f]!).join(' ')} `, `${f} of ${slug}`).toContain(` ${phrase} `);
    phrasesChecked++;
  }
  const budget = /(?:minimum project|proyek minimum) Rp ([\d.]+)/.exec(reason);
  if (budget) {
    expect(row.budget_currency_class).toBe('IDR');
    expect(row.min_project_budget_idr).toBe(Number(budget[1]!.replace(/\./g, '')));
  }
}

describe('rate limit', () => {
  it('a regular key gets 30 answers, then 429 with the exact envelope and headers', async () => {
    const key = await freshKey('regular');
    for (let i = 1; i <= 30; i++) {
      const r = await call('?q=website&limit=1', { 'X-API-Key': key });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('30');
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(30 - i));
      expect(r.headers.get('x-ratelimit-reset')).toBe('55');
      expect(r.headers.get('ratelimit-policy')).toBe('"default";q=30;w=60');
      expect(r.headers.get('ratelimit')).toBe(`"default";r=${30 - i};t=55`);
    }
    const denied = await call('?q=website', { 'X-API-Key': key });
    expect(denied.status).toBe(429);
    expect(denied.body).toEqual({ error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) } });
    expect(denied.headers.get('retry-after')).toBe('55');
    expect(denied.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(denied.headers.get('access-control-expose-headers')).toMatch(/x-ratelimit-remaining/);
    // Bad parameters do not jump the queue: 429 comes before 400.
    expect((await call('?limit=0', { 'X-API-Key': key })).status).toBe(429);
  });

  it('an enterprise key gets 120', async () => {
    const key = await freshKey('enterprise');
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await call('?q=a', { 'X-API-Key': key })).status);
    expect(statuses.slice(0, 120).every((s) => s === 400)).toBe(true); // 400s count too
    expect(statuses[120]).toBe(429);
  });
});

