/**
 * Vertical columns (the rating distribution): ordered classes along the bottom,
 * a count axis with light gridlines on the left, each column's count above it.
 * d3-scale's scaleBand places the columns; scaleLinear's nice() and ticks() give
 * the axis round whole numbers.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import type { ChartDatum } from './bar-chart.ts';
import { CHART_WIDTH, type ChartColor } from './theme.ts';

export interface ColumnChartModel {
  width: number;
  height: number;
  color: ChartColor;
  plot: { left: number; right: number; top: number; bottom: number };
  ticks: { y: number; label: string }[];
  columns: { label: string; value: number; valueLabel: string; x: number; y: number; width: number; height: number; centre: number }[];
}

const HEIGHT = 250;
const MARGIN = { top: 26, right: 4, bottom: 36, left: 40 };

export function columnChart(data: ChartDatum[], color: ChartColor, formatValue: (n: number) => string): ColumnChartModel {
  const plot = { left: MARGIN.left, right: CHART_WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };
  const x = scaleBand<number>()
    .domain(data.map((_, i) => i))
    .range([plot.left, plot.right])
    .paddingInner(0.28)
    .paddingOuter(0.14);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...data.map((d) => d.value))])
    .range([plot.bottom, plot.top])
    .nice(4);
  return {
    width: CHART_WIDTH,
    height: HEIGHT,
    color,
    plot,
    // Counts are whole numbers: no tick at 0.5.
    ticks: y
      .ticks(4)
      .filter(Number.isInteger)
      .map((t) => ({ y: y(t), label: formatValue(t) })),
    columns: data.map((d, i) => {
      const left = x(i)!;
      const top = y(d.value);
      return {
        label: d.label,
        value: d.value,
        valueLabel: formatValue(d.value),
        x: left,
        y: Math.min(top, plot.bottom - 1),
        width: x.bandwidth(),
        height: Math.max(1, plot.bottom - top),
        centre: left + x.bandwidth() / 2,
      };
    }),
  };
}
