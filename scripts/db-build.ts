/**
 * npm run db:build -- --input DIR [--out FILE] [--skip-invalid]
 * Validates a dataset directory and writes a SQLite snapshot (src/snapshot/build.ts).
 * Exit 1 with the problems (file, line or index, field) when the dataset is invalid.
 */
import { parseArgs } from 'node:util';
import { withStartVariables } from '../src/cli/start-variables.ts';

// Before the modules load: a process that replaces itself would load them twice.
withStartVariables(process.env);

const { loadEnv } = await import('../src/env.ts');
const { buildSnapshot } = await import('../src/snapshot/build.ts');
const { openBuildEmbedder } = await import('../src/snapshot/embedder-config.ts');
const { createProgressReporter } = await import('../src/snapshot/build-progress.ts');
const { DatasetInvalidError, formatIssue } = await import('../src/snapshot/validate-issues.ts');

const USAGE = 'usage: npm run db:build -- --input DIR [--out FILE] [--skip-invalid]';
const SHOWN_ISSUES = 50;

function fail(message: string): never {
  process.stderr.write(`db:build: ${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      input: { type: 'string' },
      out: { type: 'string' },
      'skip-invalid': { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.input) fail(`--input DIR is required\n${USAGE}`);
const env = (() => {
  try {
    return loadEnv();
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const outFile = values.out ?? env.directoryDb;

const progress = createProgressReporter(process.stderr, process.stderr.isTTY === true && !process.env.CI);
try {
  const result = await buildSnapshot({
    inputDir: values.input,
    outFile,
    // Settled first: a misconfigured embedding service fails before minutes of work.
    embedder: await openBuildEmbedder(env.embedder),
    skipInvalid: values['skip-invalid'],
    onProgress: progress.update,
  });
  progress.done();
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  process.stderr.write(`db:build: ${result.languageData}\n`);
  if (result.issueCount > 0) {
    process.stderr.write(`skipped ${result.counts.skipped} invalid record(s); ${result.issueCount} problem(s):\n`);
    for (const issue of result.issues.slice(0, SHOWN_ISSUES)) process.stderr.write(`  ${formatIssue(issue)}\n`);
    if (result.issueCount > SHOWN_ISSUES) process.stderr.write(`  ... and ${result.issueCount - SHOWN_ISSUES} more\n`);
  }
  const c = result.counts;
  process.stderr.write(
    `db:build: wrote ${result.outFile} in ${result.seconds.toFixed(1)}s: ${c.providers} providers (${c.published} published), ` +
      `${c.categories} categories, ${c.proofs} proofs, ${c.reports} reports; embedder ${result.embedder.name} ` +
      `(${result.embedder.dims} dims); snapshot ${result.snapshotId}\n`,
  );
  const phases = Object.entries(result.timings).map(([phase, seconds]) => `${phase} ${seconds.toFixed(1)}s`);
  process.stderr.write(`db:build: phases: ${phases.join(', ')}\n`);
} catch (err) {
  progress.done();
  if (err instanceof DatasetInvalidError) {
    process.stderr.write(`db:build: ${err.message}\n`);
    process.stderr.write(`db:build: no snapshot written (${outFile} unchanged); fix the records or pass --skip-invalid\n`);
    process.exit(1);
  }
  fail(`build failed, ${outFile} unchanged: ${(err as Error).message}`);
}
