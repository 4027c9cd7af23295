/**
 * The build's progress line on a terminal ("providers 120000 (41,200/s)"),
 * rewritten in place at most a few times a second; silent when not a terminal or
 * under CI, so logs stay clean.
 */
import type { BuildPhase } from './build.ts';

const LABELS: Record<BuildPhase, string> = {
  providers: 'providers',
  proofs: 'proofs',
  indexes: 'building indexes',
  postings: 'writing search postings',
  language: 'language bridge',
  fit: 'fitting embedder',
  embeddings: 'embeddings',
  partitions: 'vector partitions',
  finish: 'finishing',
};

export function createProgressReporter(out: NodeJS.WritableStream, enabled: boolean) {
  let phase: BuildPhase | undefined;
  let phaseStart = 0;
  let lastDraw = 0;
  let drawn = false;
  const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return {
    update(next: BuildPhase, done: number): void {
      if (!enabled) return;
      const now = performance.now();
      if (next !== phase) {
        phase = next;
        phaseStart = now;
      } else if (now - lastDraw < 200) return;
      lastDraw = now;
      const seconds = (now - phaseStart) / 1000;
      const rate = done > 0 && seconds > 0 ? ` (${number.format(done / seconds)}/s)` : '';
      const text = done > 0 ? `${LABELS[next]} ${done}${rate}` : `${LABELS[next]} ...`;
      out.write(`\r\x1b[2K${text}`);
      drawn = true;
    },
    done(): void {
      if (drawn) out.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
