/**
 * Search hears the place and the service a request names, over a snapshot of a small
 * dataset written here (its own category tree: advertising on social media beside
 * managing it, company-profile websites beside corporate videos), built with the real
 * builder: "kelola media sosial Medan" answers with the social media managers (none is
 * in Medan) before the advertising agencies, and "jasa pembuatan website Jakarta
 * Selatan" with the web developers of Jakarta Selatan, then those around it, then the
 * rest; recommend still filters on the place it reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/query/snapshot.ts';
import type { CategoryRecord, ProviderRecord } from '../../src/schemas/dataset.ts';
import { searchProviders } from '../../src/search/search.ts';
import { recommend } from '../../src/server/recommend.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';

const categories: CategoryRecord[] = [
  { id: 'c-marketing', slug: 'digital-marketing', name: 'Digital Marketing', parentId: null, active: true },
  { id: 'c-ads', slug: 'social-media-ads', name: 'Iklan Media Sosial', parentId: 'c-marketing', active: true },
  { id: 'c-smm', slug: 'social-media-management', name: 'Social Media Management', parentId: 'c-marketing', active: true },
  { id: 'c-web', slug: 'web-development', name: 'Pengembangan Web', parentId: null, active: true },
  { id: 'c-compro', slug: 'company-profile-website', name: 'Website Company Profile', parentId: 'c-web', active: true },
  { id: 'c-video', slug: 'video-production', name: 'Produksi Video', parentId: null, active: true },
  { id: 'c-logo', slug: 'logo-design', name: 'Desain Logo', parentId: null, active: true },
];

const PROVINCES: Readonly<Record<string, string>> = {
  'Jakarta Selatan': 'DKI Jakarta', 'Jakarta Barat': 'DKI Jakarta', Bekasi: 'Jawa Barat', Bandung: 'Jawa Barat', Surabaya: 'Jawa Timur',
  Makassar: 'Sulawesi Selatan', Medan: 'Sumatera Utara', Malang: 'Jawa Timur', Batam: 'Kepulauan Riau', Depok: 'Jawa Barat',
};

let n = 0;
function provider(category: string, city: string, tagline: string, description: string): ProviderRecord {
  n++;
  return {
    id: `p-${n}`, slug: `penyedia-${n}`, companyName: `Studio ${['Rasa', 'Kala', 'Wira', 'Dipa', 'Tara', 'Saka'][n % 6]} ${n}`, tagline, description,
    website: null, city, province: PROVINCES[city]!, country: 'ID', categoryIds: [category], trustLevel: 3, confidenceScore: 0.6,
    overallRating: 4.5, totalReviews: 10, capabilityTags: [], industryFocus: [], languagesSupported: ['id'], employeeCount: null,
    minProjectBudget: null, hourlyRate: null, profileProvenance: 'provider_submitted', sourceType: null, sourcePrimaryUrl: null,
    sourceAccessedAt: null, submissionStatus: 'approved', publishedAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z',
    moderationNotes: null, internalStatus: null,
  };
}

const managers = ['Makassar', 'Bandung', 'Batam', 'Malang', 'Depok', 'Surabaya'].map((city, i) =>
  provider('c-smm', city, ['Jasa kelola media sosial untuk bisnis Anda', 'Pengelolaan akun Instagram dan TikTok', 'Kelola konten media sosial tiap hari'][i % 3]!, 'Kami kelola kalender konten, balas komentar dan laporan bulanan akun media sosial klien.'),
);
const advertisers = ['Jakarta Selatan', 'Bandung', 'Surabaya', 'Medan', 'Bekasi', 'Malang'].map((city, i) =>
  provider('c-ads', city, ['Iklan Facebook dan Instagram yang terukur', 'Kampanye iklan TikTok berbayar', 'Iklan media sosial dengan target ROAS'][i % 3]!, 'Tim kami memasang iklan berbayar di media sosial, menguji materi iklan dan melaporkan hasil kampanye.'),
);
const webInJaksel = ['Jakarta Selatan', 'Jakarta Selatan', 'Jakarta Selatan'].map((city, i) =>
  provider('c-compro', city, ['Website profil usaha yang rapi', 'Situs resmi untuk perusahaan', 'Pembuatan website untuk kantor Anda'][i]!, 'Kami membangun website company profile yang cepat dan mudah diperbarui.'),
);
const webElsewhere = ['Bekasi', 'Jakarta Barat', 'Surabaya', 'Makassar', 'Medan', 'Bandung'].map((city, i) =>
  provider('c-compro', city, ['Jasa pembuatan website company profile', 'Website perusahaan siap online', 'Pembuatan website profesional'][i % 3]!, 'Pembuatan website company profile, landing page dan situs perusahaan dengan CMS.'),
);
const others = [
  provider('c-logo', 'Medan', 'Desain logo untuk UMKM', 'Kami membuat logo, kartu nama dan identitas visual yang mudah diingat.'),
  provider('c-logo', 'Jakarta Selatan', 'Logo dan identitas merek', 'Desain logo dan panduan merek untuk usaha baru.'),
  provider('c-video', 'Jakarta Selatan', 'Produksi video profil perusahaan', 'Video company profile, iklan dan dokumentasi acara.'),
  provider('c-video', 'Medan', 'Video promosi produk', 'Produksi video promosi untuk media sosial dan website.'),
];

let dir: string;
let snapshot: Snapshot;
const slugsOf = (list: ProviderRecord[]) => new Set(list.map((p) => p.slug));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'place-service-'));
  const data = path.join(dir, 'dataset');
  fs.mkdirSync(data);
  fs.writeFileSync(path.join(data, 'categories.json'), JSON.stringify(categories));
  const all = [...managers, ...advertisers, ...webInJaksel, ...webElsewhere, ...others];
  fs.writeFileSync(path.join(data, 'providers.ndjson'), all.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await buildSnapshot({ inputDir: data, outFile: path.join(dir, 'directory.db') });
  snapshot = new Snapshot(path.join(dir, 'directory.db'));
}, 120_000);

afterAll(() => {
  snapshot?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const search = (q: string) => searchProviders(snapshot, { query: q, filters: {}, sort: 'relevance', page: 1, limit: 10 });

describe('a service in a city', () => {
  it('"kelola media sosial Medan": managing, not advertising; none in Medan, so the managers elsewhere come first', async () => {
    const r = await search('kelola media sosial Medan');
    expect(r.meta.understood.place).toMatchObject({ kind: 'city', name: 'Medan' });
    expect(r.meta.understood.services.map((s) => s.slug)).toEqual(['social-media-management']);
    expect(r.meta.understood.searchText).toBe('kelola media sosial');
    const top = r.items.slice(0, managers.length).map((i) => i.summary.slug);
    expect(new Set(top)).toEqual(slugsOf(managers));
  });

  it('"jasa pembuatan website Jakarta Selatan": its web developers first, then those around it, then the rest', async () => {
    const r = await search('jasa pembuatan website Jakarta Selatan');
    const items = r.items.map((i) => ({ slug: i.summary.slug, place: i.search.place }));
    expect(new Set(items.slice(0, 3).map((i) => i.slug))).toEqual(slugsOf(webInJaksel));
    expect(items.slice(0, 3).every((i) => i.place === 'in')).toBe(true);
    // then the web developers around it (Jakarta Barat, Bekasi), then the others
    const web = slugsOf(webElsewhere);
    const next = items.slice(3, 3 + webElsewhere.length);
    expect(next.every((i) => web.has(i.slug))).toBe(true);
    expect(next.map((i) => i.place)).toEqual(['near', 'near', 'elsewhere', 'elsewhere', 'elsewhere', 'elsewhere']);
  });

  it('without the place, the same service order, and no place reported', async () => {
    const r = await search('kelola media sosial');
    expect(r.meta.understood.place).toBeNull();
    expect(new Set(r.items.slice(0, managers.length).map((i) => i.summary.slug))).toEqual(slugsOf(managers));
    expect(r.items.every((i) => i.search.place === null)).toBe(true);
  });

  it('recommend still applies the place it reads as a filter', async () => {
    const answer = await recommend(snapshot, { q: 'jasa pembuatan website Jakarta Selatan', city: null, limit: 10 });
    expect(answer.meta.understood.place).toMatchObject({ kind: 'city', name: 'Jakarta Selatan' });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.data.every((d) => d.city === 'Jakarta Selatan')).toBe(true);
  });
});
