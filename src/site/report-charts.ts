/**
 * The report's figures (src/query/reports.ts `marketFigures`, the API's numbers) as
 * chart models, shared by the report pages and the category pages. Only the
 * presentation is decided here: labels in Indonesian, which rows a chart shows.
 */
import type { MarketFigures } from '../query/reports.ts';
import { barChart, type BarChartModel } from './charts/bar-chart.ts';
import { columnChart, type ColumnChartModel } from './charts/column-chart.ts';
import { rangeChart, type RangeChartModel } from './charts/range-chart.ts';
import { formatCount, formatRupiah, trustLabel } from '../text/format.ts';

/** "4.50-5.00" -> "4,50–5,00" */
export const ratingRangeLabel = (range: string) => range.replace(/\./g, ',').replace('-', '–');
export const trustRowLabel = (level: number) => `${level} · ${trustLabel(level)}`;

export interface CityChart {
  model: BarChartModel;
  /** cities drawn (the biggest), out of `cityCount` */
  shown: number;
  cityCount: number;
}

export function cityChart(byCity: MarketFigures['byCity'], limit: number): CityChart {
  const shown = byCity.slice(0, limit);
  return {
    model: barChart(shown.map((c) => ({ label: c.city, value: c.count })), 'city', formatCount),
    shown: shown.length,
    cityCount: byCity.length,
  };
}

export const trustChart = (trust: MarketFigures['trustDistribution']): BarChartModel =>
  barChart(trust.map((t) => ({ label: trustRowLabel(t.trustLevel), value: t.count })), 'trust', formatCount);

export const ratingChart = (ratings: MarketFigures['ratingDistribution']): ColumnChartModel =>
  columnChart(ratings.map((r) => ({ label: ratingRangeLabel(r.range), value: r.count })), 'rating', formatCount);

type MoneyFigure = MarketFigures['commercial']['hourlyRate'];

/** A band only where displayable values exist (the figure holds nothing else). */
export function moneyChart(figure: MoneyFigure): RangeChartModel | null {
  if (figure.providersWithDisplayableValue === 0 || figure.minIdr === null || figure.medianIdr === null || figure.maxIdr === null) return null;
  return rangeChart({ minIdr: figure.minIdr, medianIdr: figure.medianIdr, maxIdr: figure.maxIdr }, formatRupiah, {
    min: 'Min',
    median: 'Median',
    max: 'Maks',
  });
}

type SentenceFigures = Pick<MarketFigures, 'totalProviders' | 'byCity' | 'trustDistribution' | 'ratingDistribution' | 'providersWithReviews' | 'providersWithoutReviews'>;

/**
 * One sentence per chart that says what it shows at a glance (figcaption and SVG
 * desc), and the sentence that counts the providers a rating chart leaves out
 * (docs/interface.md, "Statistics"), or null when every provider is rated.
 */
export function chartSentences(figures: SentenceFigures, cities: CityChart) {
  const top = figures.byCity[0];
  const trusted = figures.trustDistribution.filter((t) => t.trustLevel >= 3).reduce((s, t) => s + t.count, 0);
  const modal = figures.ratingDistribution.reduce((best, r) => (r.count > best.count ? r : best), figures.ratingDistribution[0]!);
  return {
    cities: top
      ? `${top.city} memiliki penyedia terbanyak (${formatCount(top.count)}). Grafik menampilkan ${cities.shown} dari ${cities.cityCount} kota.`
      : 'Belum ada penyedia dengan kota yang diketahui.',
    trust: `${formatCount(trusted)} dari ${formatCount(figures.totalProviders)} penyedia berada di tingkat kepercayaan 3 (terverifikasi) atau lebih tinggi.`,
    ratings:
      figures.providersWithReviews > 0
        ? `Rentang rating yang paling sering: ${ratingRangeLabel(modal.range)} (${formatCount(modal.count)} dari ${formatCount(figures.providersWithReviews)} penyedia yang memiliki ulasan).`
        : 'Belum ada penyedia yang memiliki ulasan.',
    unrated: unratedSentence(figures.providersWithoutReviews),
  };
}

/** "7 penyedia belum memiliki ulasan ...", or null when there is none. */
const unratedSentence = (unrated: number): string | null =>
  unrated > 0 ? `${formatCount(unrated)} penyedia belum memiliki ulasan; mereka tidak dihitung dalam sebaran maupun rata-rata rating.` : null;
