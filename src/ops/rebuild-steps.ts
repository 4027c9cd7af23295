/**
 * The steps of `npm run rebuild`, by name, with the time each took: printed on
 * stderr as each finishes, summed up in the summary's last line, and kept in the
 * release's release.json (`steps`, `totalMs`, `peakRssMb`, `renderPeakRssMb`) where
 * the publish benchmark (bench/publish.ts) reads them. A fixed, typed list, so a
 * figure means the same step in every release.
 */

export const REBUILD_STEPS = {
  queue: 'waiting for the running rebuild or rollback',
  snapshot: 'validate + snapshot',
  diff: 'diff with the live snapshot',
  render: 'render',
  urls: 'changed URLs',
  verify: 'waiting for the snapshot check',
  switch: 'switch',
  prune: 'prune',
  spare: 'copy of the snapshot for the next publish',
  publish: 'publish to origin',
} as const;
export type RebuildStep = keyof typeof REBUILD_STEPS;

export interface StepTime {
  name: RebuildStep;
  ms: number;
  /** the process's peak resident memory when the step ended: the step that raised it is where memory goes */
  peakRssMb: number;
}

/** What release.json keeps of a rebuild's timing. */
export interface RebuildTimings {
  steps: StepTime[];
  /** from the process's start to the end of the last step */
  totalMs: number;
  /** the rebuild process's peak resident memory */
  peakRssMb: number;
  /** the render child's (`astro build`), when one ran */
  renderPeakRssMb: number | null;
}

export class StepClock {
  readonly steps: StepTime[] = [];
  private readonly log: (msg: string) => void;

  constructor(log: (msg: string) => void) {
    this.log = log;
  }

  async time<T>(name: RebuildStep, step: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    const value = await step();
    this.record(name, performance.now() - started);
    return value;
  }

  record(name: RebuildStep, ms: number): void {
    const peakRssMb = peakRss();
    this.steps.push({ name, ms: Math.round(ms), peakRssMb });
    this.log(`${REBUILD_STEPS[name]}: ${seconds(ms)} (peak RSS ${peakRssMb} MB)`);
  }

  timings(renderPeakRssMb: number | null): RebuildTimings {
    return {
      steps: [...this.steps],
      totalMs: Math.round(performance.now()),
      peakRssMb: peakRss(),
      renderPeakRssMb,
    };
  }
}

const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** The summary's last line: every step that ran, the total and the peak memory. */
export function stepLine(t: RebuildTimings): string {
  const child = t.renderPeakRssMb === null ? '' : `, render child ${t.renderPeakRssMb} MB`;
  const cells = [...t.steps.map((s) => `${s.name} ${seconds(s.ms)}`), `total ${seconds(t.totalMs)}`, `peak RSS ${t.peakRssMb} MB${child}`];
  return `steps: ${cells.join(' | ')}`;
}
