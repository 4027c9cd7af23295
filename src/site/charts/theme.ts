/**
 * What every chart shares: its drawing width (the SVG viewBox; the CSS scales it to
 * the column), type sizes in viewBox units, and the palette. Colours follow the
 * site's stylesheet (brand blue, the trust badge's green) and each fill keeps at
 * least 3:1 contrast against white (WCAG 1.4.11 for graphics); labels use the ink.
 */
export const CHART_WIDTH = 420;
export const FONT_SIZE = 14;
export const SMALL_FONT_SIZE = 12.5;

export const CHART_COLORS = {
  city: '#0b5cad',
  trust: '#1d6b3a',
  rating: '#9a5b00',
  band: '#8fb3dc',
  median: '#10325a',
  grid: '#d9dde3',
  ink: '#1a1d23',
  muted: '#4a5260',
} as const;
export type ChartColor = keyof typeof CHART_COLORS;

/** A rough text width (system sans-serif averages about 0.56 em per character). */
export const textWidth = (text: string, size = FONT_SIZE) => text.length * size * 0.56;

/** Cuts a label to fit `width`, ending in an ellipsis (the full text stays in the data table). */
export function fitLabel(text: string, width: number, size = FONT_SIZE): string {
  if (textWidth(text, size) <= width + 0.5) return text;
  const chars = Math.max(1, Math.floor(width / (size * 0.56)) - 1);
  return `${text.slice(0, chars).trimEnd()}…`;
}
