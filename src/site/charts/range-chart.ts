/**
 * A money band: the span from the lowest to the highest displayable value on a
 * logarithmic Rupiah axis (amounts span orders of magnitude), the median marked on
 * it. d3-scale's scaleLog places the values and gives the axis ticks.
 */
import { scaleLog } from 'd3-scale';
import { CHART_WIDTH, SMALL_FONT_SIZE, textWidth } from './theme.ts';

export interface RangeChartModel {
  width: number;
  height: number;
  band: { x: number; y: number; width: number; height: number };
  /** the median's label above the band, the ends' labels beside it (or below when there is no room) */
  markers: { kind: 'min' | 'median' | 'max'; x: number; labelX: number; labelY: number; label: string; anchor: 'start' | 'middle' | 'end' }[];
  ticks: { x: number; label: string }[];
  axis: { x1: number; x2: number; y: number };
}

export interface MoneyRange {
  minIdr: number;
  medianIdr: number;
  maxIdr: number;
}

const HEIGHT = 150;
const SIDE = 36;
const BAND_Y = 40;
const BAND_HEIGHT = 22;
const BELOW = BAND_Y + BAND_HEIGHT + 20;
const LABEL_GAP = 8;
const PAD = 1.6;
const AXIS_Y = 118;
/** Least room between two tick labels, in viewBox units. */
const TICK_SPACING = 72;

/** Of a log scale's ticks, the round ones (1, 2, 5 times a power of ten) that have room for their label. */
function readableTicks(all: number[], position: (t: number) => number): number[] {
  const round = all.filter((t) => [1, 2, 5].includes(Number(t.toExponential(0).split('e')[0])));
  const kept: number[] = [];
  for (const t of round.length >= 2 ? round : all) {
    if (kept.length === 0 || position(t) - position(kept.at(-1)!) >= TICK_SPACING) kept.push(t);
  }
  return kept;
}

const compact = new Intl.NumberFormat('id-ID', { notation: 'compact', maximumFractionDigits: 1 });
/** "Rp 500 rb", "Rp 1,5 jt": short Rupiah for axis ticks. */
export const compactRupiah = (amount: number) => `Rp ${compact.format(amount)}`;

export function rangeChart(range: MoneyRange, formatMoney: (n: number) => string, markerWords: Record<'min' | 'median' | 'max', string>): RangeChartModel {
  // A single value (min = max) still gets a readable axis around it.
  const low = range.minIdr === range.maxIdr ? range.minIdr / 2 : range.minIdr;
  const high = range.minIdr === range.maxIdr ? range.maxIdr * 2 : range.maxIdr;
  // Padded by half a step either side rather than niced to powers of ten, which would
  // shrink a narrow band to a sliver.
  const x = scaleLog()
    .domain([Math.max(1, low / PAD), Math.max(2, high * PAD)])
    .range([SIDE, CHART_WIDTH - SIDE]);
  const ticks = readableTicks(x.ticks(), (t) => x(t)).map((t) => ({ x: x(t), label: compactRupiah(t) }));
  const at = (v: number) => x(Math.max(1, v));
  const value = { min: range.minIdr, median: range.medianIdr, max: range.maxIdr };
  const middle = BAND_Y + BAND_HEIGHT / 2;
  // The ends are labelled beside the band (short Rupiah) where there is room, else below
  // it; the median is labelled in full above its dot. Exact amounts sit beside the chart.
  const end = (kind: 'min' | 'max') => {
    const px = at(value[kind]);
    const label = `${markerWords[kind]} ${compactRupiah(value[kind])}`;
    const room = textWidth(label, SMALL_FONT_SIZE) + LABEL_GAP;
    if (kind === 'min') {
      return px - room >= 0
        ? { kind, x: px, labelX: px - LABEL_GAP, labelY: middle, label, anchor: 'end' as const }
        : { kind, x: px, labelX: px, labelY: BELOW, label, anchor: 'start' as const };
    }
    return px + room <= CHART_WIDTH
      ? { kind, x: px, labelX: px + LABEL_GAP, labelY: middle, label, anchor: 'start' as const }
      : { kind, x: px, labelX: px, labelY: BELOW, label, anchor: 'end' as const };
  };
  const medianX = at(value.median);
  const medianLabel = `${markerWords.median} ${formatMoney(value.median)}`;
  const half = textWidth(medianLabel, SMALL_FONT_SIZE) / 2;
  const median = {
    kind: 'median' as const,
    x: medianX,
    labelX: Math.min(CHART_WIDTH - half, Math.max(half, medianX)),
    labelY: BAND_Y - 12,
    label: medianLabel,
    anchor: 'middle' as const,
  };
  const markers = [end('min'), median, end('max')];
  return {
    width: CHART_WIDTH,
    height: HEIGHT,
    band: { x: at(range.minIdr), y: BAND_Y, width: Math.max(4, at(range.maxIdr) - at(range.minIdr)), height: BAND_HEIGHT },
    markers,
    ticks,
    axis: { x1: SIDE, x2: CHART_WIDTH - SIDE, y: AXIS_Y },
  };
}
