/** The publish part's figures as printed (bench/results.ts): size keys, and every rebuild step a column in its order. */
import { describe, expect, it } from 'vitest';
import { publishTable, sizeLabel } from '../../bench/results.ts';
import type { PublishRun } from '../../bench/publish.ts';

const run = (change: PublishRun['change'], steps: Record<string, number>): PublishRun => ({
  change,
  seconds: 12.5,
  peakRssMb: 900,
  rebuildPeakRssMb: 400,
  renderPeakRssMb: 500,
  renderMode: 'incremental',
  renderedPaths: 80,
  steps,
  copySeconds: 0.4,
  liveCheckMs: 3,
  releasesMb: 55,
  releasesAndOriginMb: 60,
});

describe('the publish table', () => {
  it('names sizes as the other parts do', () => {
    expect([sizeLabel(100_000), sizeLabel(1_000_000), sizeLabel(2000), sizeLabel(1234)]).toEqual(['100k', '1m', '2k', '1234']);
  });

  it('has the time to the switch and a column per rebuild step, in order, and a dash for a step that did not run', () => {
    const text = publishTable({ '100k': { providers: 100_000, runs: [run('first', { queue: 0, snapshot: 30.5, render: 20 }), run(1000, { queue: 1, snapshot: 2, spare: 1.5, publish: 4 })] } });
    const [head, , first, second] = text.split('\n');
    expect(head!.split(/\s{2,}/)).toEqual(['publish', 'render', 'wall s', 'to switch s', 'queue', 'snapshot', 'diff', 'render', 'urls', 'verify', 'switch', 'prune', 'spare', 'publish', 'live check ms', 'tree RSS MB', 'rebuild MB', 'render MB', 'releases MB']);
    expect(first!.split(/\s{2,}/)).toEqual(['100k first release', 'incremental', '12.5', '12.5', '0', '30.5', '-', '20', '-', '-', '-', '-', '-', '-', '3', '900', '400', '500', '55']);
    // to the switch: the wall time less the steps after it (prune, spare, publish)
    expect(second!.split(/\s{2,}/).slice(0, 14)).toEqual(['100k 1,000 changed', 'incremental', '12.5', '7', '1', '2', '-', '-', '-', '-', '-', '-', '1.5', '4']);
  });
});
