/**
 * Progress lines: shown on a terminal, silent under CI or when stderr is piped.
 * Results (the table) always go to stdout.
 */
const interactive = process.stderr.isTTY === true && !process.env.CI;
const started = performance.now();

/** Whether progress is shown: a child's own progress (stderr) may then pass through. */
export const progressShown = () => interactive;

export function progress(message: string): void {
  if (!interactive) return;
  const t = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${t}s] ${message}\n`);
}

/** Warnings are shown everywhere: they explain a missing figure. */
export function warn(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}
