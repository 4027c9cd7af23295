/**
 * npm run data:generate -- --providers N --seed S --out DIR
 * Writes a deterministic dataset directory (docs/interface.md, Dataset format). Progress on a
 * terminal, quiet under CI or when stderr is not a TTY.
 */
import { parseArgs } from 'node:util';
import { generateDataset } from '../src/generate/index.ts';

const USAGE = 'usage: npm run data:generate -- --providers N --seed S --out DIR';

function fail(message: string): never {
  process.stderr.write(`data:generate: ${message}\n${USAGE}\n`);
  process.exit(1);
}

function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) fail(`--${name} must be an integer, got "${raw}"`);
  return Number.parseInt(raw, 10);
}

let values;
try {
  ({ values } = parseArgs({
    options: { providers: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.out) fail('--out DIR is required');
const providers = parseCount('providers', values.providers, 500);
if (providers < 0) fail('--providers must be >= 0');
const seed = parseCount('seed', values.seed, 42);

const showProgress = process.stderr.isTTY === true && !process.env.CI;
const started = performance.now();
const summary = await generateDataset({
  providers,
  seed,
  outDir: values.out,
  onProgress: showProgress
    ? (done, total) => {
        const seconds = (performance.now() - started) / 1000;
        const rate = Math.round(done / Math.max(seconds, 0.001));
        process.stderr.write(`\rgenerating providers: ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${rate.toLocaleString('en')}/s)`);
      }
    : undefined,
});
if (showProgress) process.stderr.write('\n');
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(`wrote ${summary.providers} providers, ${summary.proofs} proofs, ${summary.categories} categories to ${summary.outDir} in ${seconds}s\n`);
