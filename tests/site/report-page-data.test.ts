/**
 * reportPage() on a snapshot of the small hand-made dataset, in process: the page
 * data is the API's report as it is, and a report that counts no provider (here:
 * a country with none) gets no charts, so the page says so instead of drawing
 * empty axes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report } from '../../src/query/reports.ts';
import { Snapshot } from '../../src/query/snapshot.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { REPORT_CITY_BARS, reportPage } from '../../src/site/report-page.ts';

const URLS = { webUrl: 'http://localhost:4321', apiUrl: 'http://localhost:4321' };
const MINI = path.resolve(import.meta.dirname, '../fixtures/dataset-mini');
const EMPTY_SLUG = 'web-development-brunei-2026';
let dir: string;
let snapshot: Snapshot;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-page-'));
  fs.cpSync(MINI, path.join(dir, 'dataset'), { recursive: true });
  const reportsFile = path.join(dir, 'dataset', 'reports.json');
  const reports = JSON.parse(fs.readFileSync(reportsFile, 'utf8')) as Record<string, unknown>[];
  reports.push({ ...reports[0], slug: EMPTY_SLUG, title: 'Web Development di Brunei 2026', country: 'BN' });
  fs.writeFileSync(reportsFile, JSON.stringify(reports));
  await buildSnapshot({ inputDir: path.join(dir, 'dataset'), outFile: path.join(dir, 'directory.db'), embedder: null });
  snapshot = new Snapshot(path.join(dir, 'directory.db'));
});
afterAll(() => {
  snapshot?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reportPage', () => {
  it('carries the API report unchanged and draws one mark per figure row', () => {
    const page = reportPage(snapshot, 'web-development-indonesia-2026', URLS)!;
    const api = report(snapshot, 'web-development-indonesia-2026')!;
    expect(page.report).toEqual(api.data);
    expect(page.report.totalProviders).toBeGreaterThan(0);
    expect(page.charts!.trust.bars.map((b) => b.value)).toEqual(api.data.trustDistribution.map((t) => t.count));
    expect(page.charts!.ratings!.columns.map((c) => c.value)).toEqual(api.data.ratingDistribution.map((r) => r.count));
    expect(page.charts!.cities.model.bars.map((b) => b.label)).toEqual(api.data.byCity.slice(0, REPORT_CITY_BARS).map((c) => c.city));
    expect(page.charts!.minProjectBudget === null).toBe(api.data.commercial.minProjectBudget.providersWithDisplayableValue === 0);
  });

  it('has no charts for a report that counts no provider, and no data date', () => {
    const page = reportPage(snapshot, EMPTY_SLUG, URLS)!;
    expect(page.report.totalProviders).toBe(0);
    expect(page.charts).toBeNull();
    expect(page.dataDate).toBeNull();
  });

  it('is undefined for an unknown slug', () => {
    expect(reportPage(snapshot, 'no-such-report', URLS)).toBeUndefined();
  });
});
