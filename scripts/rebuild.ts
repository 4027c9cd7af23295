/**
 * npm run rebuild -- --input DIR [--full] [--indexnow] [--keep N]
 * The editor's one command: validate, build the snapshot, render the site, and
 * switch both atomically (src/ops/rebuild.ts), then with RELEASE_ORIGIN_DIR publish
 * the release for the other nodes. Prints what changed; the summary goes to stdout,
 * progress to stderr. Exit 1 leaves the live data and site as they were, except
 * when only the publishing failed (the summary says so; npm run origin:publish tries again).
 */
import { parseArgs } from 'node:util';
import { withStartVariables } from '../src/cli/start-variables.ts';

// Before the modules load: a process that replaces itself would load them twice.
withStartVariables(process.env);

const { loadEnv } = await import('../src/env.ts');
const { rebuild } = await import('../src/ops/rebuild.ts');
const { openBuildEmbedder } = await import('../src/snapshot/embedder-config.ts');
const { releasePaths } = await import('../src/ops/settings.ts');
const { formatSummary } = await import('../src/ops/summary.ts');
const { submitIndexNow } = await import('../src/ops/changed-urls.ts');
const { resolveIndexNowKey } = await import('../src/site/indexnow.ts');
const { describePublish } = await import('../src/ops/origin-publish.ts');

const USAGE = 'usage: npm run rebuild -- --input DIR [--full] [--indexnow] [--keep N]';
const log = (msg: string) => process.stderr.write(`rebuild: ${msg}\n`);

function fail(message: string): never {
  process.stderr.write(`rebuild: ${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      input: { type: 'string' },
      full: { type: 'boolean', default: false },
      indexnow: { type: 'boolean', default: false },
      keep: { type: 'string', default: '3' },
      help: { type: 'boolean' },
    },
  }));
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.input) fail(`--input DIR is required\n${USAGE}`);
const keep = Number(values.keep);
if (!Number.isInteger(keep) || keep < 2) fail('--keep must be an integer >= 2 (the live release and its rollback)');

try {
  const env = loadEnv();
  const paths = releasePaths(env);
  const result = await rebuild({
    inputDir: values.input,
    paths,
    env,
    indexNowKey: resolveIndexNowKey(env.indexNowKey),
    // Settled first: a misconfigured embedding service fails before minutes of work.
    embedder: await openBuildEmbedder(env.embedder),
    baseEnv: process.env,
    forceFull: values.full,
    keep,
    log,
  });
  process.stdout.write(`${formatSummary(result)}\n`);
  if (result.published) {
    process.stdout.write(`${describePublish(result.published, env.releaseOriginDir!)}\n`);
    if (!result.published.ok) process.exitCode = 1;
  }
  if (values.indexnow) log(`IndexNow submission: HTTP ${await submitIndexNow(result.indexNowFile)}`);
} catch (err) {
  fail(`${(err as Error).message}\nnothing was switched: the live snapshot and site are unchanged`);
}
