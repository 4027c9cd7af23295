/** `npm run keys -- create|list|revoke|import`: see src/keys/cli.ts. */
import { loadEnv } from '../src/env.ts';
import { runKeysCli } from '../src/keys/cli.ts';

const env = loadEnv();
process.exitCode = await runKeysCli(process.argv.slice(2), { keysDb: env.keysDb, redisUrl: env.redisUrl }, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
