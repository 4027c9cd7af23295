/**
 * Horizontal bars (providers by city, by trust level): one labelled row per datum,
 * the count written at the end of its bar, so the chart reads without an axis.
 * Geometry comes from d3-scale: scaleBand places the rows, scaleLinear sizes the bars.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { CHART_WIDTH, fitLabel, textWidth, type ChartColor } from './theme.ts';

export interface ChartDatum {
  label: string;
  value: number;
}

export interface BarChartModel {
  width: number;
  height: number;
  color: ChartColor;
  /** x of the bars' common baseline */
  baseline: number;
  bars: {
    label: string;
    /** the label as drawn (cut to the label column) */
    shownLabel: string;
    value: number;
    valueLabel: string;
    x: number;
    y: number;
    width: number;
    height: number;
    /** vertical centre of the row, where both texts sit */
    middle: number;
    valueX: number;
  }[];
}

const ROW = 32;
const GAP = 8;
const MAX_LABEL_COLUMN = 0.52 * CHART_WIDTH;
const VALUE_ROOM = 52;

export function barChart(data: ChartDatum[], color: ChartColor, formatValue: (n: number) => string): BarChartModel {
  const labelColumn = Math.min(MAX_LABEL_COLUMN, Math.max(60, ...data.map((d) => textWidth(d.label))) + GAP);
  const height = Math.max(1, data.length) * ROW;
  const y = scaleBand<number>()
    .domain(data.map((_, i) => i))
    .range([0, height])
    .paddingInner(0.22)
    .paddingOuter(0.11);
  const max = Math.max(1, ...data.map((d) => d.value));
  const x = scaleLinear().domain([0, max]).range([labelColumn, CHART_WIDTH - VALUE_ROOM]);
  return {
    width: CHART_WIDTH,
    height,
    color,
    baseline: labelColumn,
    bars: data.map((d, i) => {
      const top = y(i)!;
      const end = x(d.value);
      return {
        label: d.label,
        shownLabel: fitLabel(d.label, labelColumn - GAP),
        value: d.value,
        valueLabel: formatValue(d.value),
        x: labelColumn,
        y: top,
        // A zero still shows a hairline, so an empty row reads as "none", not as missing.
        width: Math.max(d.value > 0 ? 2 : 1, end - labelColumn),
        height: y.bandwidth(),
        middle: top + y.bandwidth() / 2,
        valueX: end + 6,
      };
    }),
  };
}

