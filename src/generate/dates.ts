/**
 * Fixed reference dates: the generated directory lives between 2025 and mid-2026,
 * whatever day the generator runs, so its output never depends on the clock.
 */
const DAY_MS = 86_400_000;

export const WINDOW_START = Date.UTC(2025, 0, 6); // first listings
export const WINDOW_END = Date.UTC(2026, 4, 29); // the dataset's "today"

/** An ISO 8601 UTC timestamp `days` after `fromMs`, at a working-hours time of day. */
export function isoAfter(fromMs: number, days: number, minuteOfDay: number): string {
  const dayStart = Math.floor(fromMs / DAY_MS) * DAY_MS;
  return new Date(dayStart + Math.floor(days) * DAY_MS + minuteOfDay * 60_000).toISOString();
}

export function daysBetween(fromMs: number, toMs: number): number {
  return Math.floor((toMs - fromMs) / DAY_MS);
}
