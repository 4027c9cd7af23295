/** `npm run keys -- create|list|revoke`: see src/keys/cli.ts. */
import { loadEnv } from '../src/env.ts';
import { runKeysCli } from '../src/keys/cli.ts';

const env = loadEnv();
process.exitCode = runKeysCli(process.argv.slice(2), env.keysDb, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
