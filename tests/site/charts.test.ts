/** The chart models (src/site/charts/): geometry from d3-scale, checked as numbers. */
import { describe, expect, it } from 'vitest';
import { barChart } from '../../src/site/charts/bar-chart.ts';
import { columnChart } from '../../src/site/charts/column-chart.ts';
import { compactRupiah, rangeChart } from '../../src/site/charts/range-chart.ts';
import { CHART_WIDTH } from '../../src/site/charts/theme.ts';
import { formatRupiah } from '../../src/text/format.ts';

const words = { min: 'Min', median: 'Median', max: 'Maks' };
const finite = (model: unknown) => JSON.stringify(model, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? 'NOT-FINITE' : v));

describe('barChart', () => {
  const model = barChart(
    [
      { label: 'Jakarta Selatan', value: 20 },
      { label: 'Kota Dengan Nama Yang Sangat Panjang Sekali Untuk Diuji', value: 5 },
      { label: 'Batam', value: 0 },
    ],
    'city',
    String,
  );
  it('sizes bars in proportion to their values, from one baseline, inside the viewBox', () => {
    const [a, b, c] = model.bars;
    expect(a!.width / b!.width).toBeCloseTo(4, 5);
    expect(c!.width).toBe(1);
    for (const bar of model.bars) {
      expect(bar.x).toBe(model.baseline);
      expect(bar.valueX + 30).toBeLessThanOrEqual(CHART_WIDTH);
      expect(bar.y + bar.height).toBeLessThanOrEqual(model.height);
    }
    expect(a!.y).toBeLessThan(b!.y);
  });
  it('cuts a label too long for the label column and keeps short ones whole', () => {
    expect(model.bars[0]!.shownLabel).toBe('Jakarta Selatan');
    expect(model.bars[1]!.shownLabel).toMatch(/^Kota Dengan .*…$/);
    expect(model.bars[1]!.label).toBe('Kota Dengan Nama Yang Sangat Panjang Sekali Untuk Diuji');
  });
});

describe('columnChart', () => {
  it('draws heights in proportion and labels the axis with whole numbers only', () => {
    const model = columnChart([{ label: 'a', value: 1 }, { label: 'b', value: 3 }, { label: 'c', value: 0 }], 'rating', String);
    const [a, b] = model.columns;
    expect(b!.height / a!.height).toBeCloseTo(3, 5);
    expect(model.ticks.length).toBeGreaterThan(1);
    for (const t of model.ticks) expect(Number.isInteger(Number(t.label))).toBe(true);
    expect(a!.y + a!.height).toBeCloseTo(model.plot.bottom, 5);
  });
});

describe('rangeChart', () => {
  it('orders min, median and max along a log axis of round Rupiah ticks', () => {
    const model = rangeChart({ minIdr: 20_000_000, medianIdr: 95_000_000, maxIdr: 495_000_000 }, formatRupiah, words);
    const x = Object.fromEntries(model.markers.map((m) => [m.kind, m.x]));
    expect(x.min).toBeLessThan(x.median!);
    expect(x.median).toBeLessThan(x.max!);
    expect(model.band.x).toBeCloseTo(x.min!, 5);
    expect(model.band.x + model.band.width).toBeCloseTo(x.max!, 5);
    // On a log axis equal ratios are equal distances.
    const r = rangeChart({ minIdr: 1_000_000, medianIdr: 10_000_000, maxIdr: 100_000_000 }, formatRupiah, words);
    const [lo, mid, hi] = r.markers.map((m) => m.x);
    expect(mid! - lo!).toBeCloseTo(hi! - mid!, 5);
    expect(model.ticks.length).toBeGreaterThanOrEqual(2);
    for (const t of model.ticks) expect(t.label).toMatch(/^Rp (1|2|5|10|20|50|100|200|500)\u00a0(rb|jt|M)$/);
    expect(model.markers.find((m) => m.kind === 'median')!.label).toBe('Median Rp 95.000.000');
  });
  it('keeps one value (min = max) drawable, with finite numbers only', () => {
    const model = rangeChart({ minIdr: 500_000, medianIdr: 500_000, maxIdr: 500_000 }, formatRupiah, words);
    expect(finite(model)).not.toContain('NOT-FINITE');
    expect(model.band.width).toBeGreaterThanOrEqual(4);
    expect(model.ticks.length).toBeGreaterThanOrEqual(1);
  });
  it('writes short Rupiah for ticks (a no-break space keeps the unit with its number)', () => {
    expect(compactRupiah(500_000)).toBe('Rp 500\u00a0rb');
    expect(compactRupiah(2_000_000)).toBe('Rp 2\u00a0jt');
  });
});
