/**
 * The incremental snapshot build alone, as `npm run rebuild` runs it (build-choice.ts:
 * the base's copy beside the scan, then the change applied), timed by step: N changed providers (bench/dataset-edit.ts) against a base snapshot
 * built in full from --input. Each run is a child process of its own (its peak RSS is
 * the run's); the edited dataset is written once, under --work.
 *
 *   node bench/snapshot-incremental.ts --input DIR --base FILE --changed 1 [--runs 3] [--work DIR]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildIncremental, scanAgainst, startBaseCopy } from '../src/snapshot/build-incremental.ts';
import { CHANGE_FLOOR, CHANGE_LIMIT } from '../src/snapshot/build-choice.ts';
import { writeEditedDataset } from './dataset-edit.ts';

interface Run {
  seconds: number;
  copySeconds: number;
  steps: Record<string, number>;
  peakRssMb: number;
  line: string;
}

const { values } = parseArgs({
  options: {
    input: { type: 'string' },
    base: { type: 'string' },
    changed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
    work: { type: 'string', default: 'bench/cache/snapshot-incremental' },
    one: { type: 'string' },
  },
});

async function one(inputDir: string): Promise<Run> {
  const outFile = path.join(path.resolve(values.work), 'out.db');
  const base = path.resolve(values.base!);
  const db = new Database(base, { readonly: true });
  const providers = db.prepare("SELECT value FROM snapshot_meta WHERE key = 'count_providers'").pluck().get() as string;
  db.close();
  fs.rmSync(outFile, { force: true }); // a release's snapshot is a new file
  const started = performance.now();
  const copy = startBaseCopy(base, outFile);
  const change = await scanAgainst(base, inputDir, Math.max(CHANGE_FLOOR, Math.floor(CHANGE_LIMIT * Number(providers))));
  const scanned = performance.now();
  const result = await buildIncremental({ inputDir, copy, change });
  const seconds = (performance.now() - started) / 1000;
  const steps = { scan: (scanned - started) / 1000, copy_wait: result.copyWaitSeconds, build: (performance.now() - scanned) / 1000, ...result.steps };
  const { added, edited, removed } = result.changed;
  return { seconds, copySeconds: result.copySeconds, steps, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), line: `${added} added, ${edited} edited, ${removed} gone` };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (values.one) {
  process.stdout.write(JSON.stringify(await one(values.one)));
} else {
  if (!values.input || !values.base) throw new Error('usage: --input DIR --base FILE [--changed N] [--runs R] [--work DIR]');
  const work = path.resolve(values.work);
  fs.mkdirSync(work, { recursive: true });
  const changed = Number(values.changed);
  const edited = path.join(work, `edited-${changed}`);
  await writeEditedDataset(path.resolve(values.input), edited, changed, 'bench');
  const runs: Run[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    const args = [...process.execArgv, process.argv[1]!, '--base', values.base, '--work', work, '--one', edited];
    const run = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as Run;
    console.log(JSON.stringify(run));
    runs.push(run);
  }
  const steps = Object.keys(runs[0]!.steps);
  console.log(
    `median of ${runs.length}, ${changed} changed: ${median(runs.map((r) => r.seconds)).toFixed(2)} s, peak RSS ${median(runs.map((r) => r.peakRssMb))} MB;`,
    steps.map((s) => `${s} ${median(runs.map((r) => r.steps[s] ?? 0)).toFixed(2)}`).join(', '),
  );
  fs.rmSync(path.join(work, 'out.db'), { force: true });
}
