/**
 * `npm run serve`: serves the static surface, the API and the server-rendered
 * pages on one port. Never builds: expects a built snapshot (DIRECTORY_DB) and,
 * for pages, `astro build` output. `npm start` builds what is missing first and
 * then runs this.
 *
 * Operations (docs/operations.md): pino request logs on stdout; the snapshot is
 * verified at start (a bad file exits 1) and hot-swapped when DIRECTORY_DB is
 * replaced; SIGTERM/SIGINT drain in-flight requests, then exit 0.
 *
 * This is the server's edge: the settings are parsed here, once, and the app
 * context (src/server/context.ts) is made here and handed to the server.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_V8_FLAGS } from '../src/cli/server-heap.ts';
import { withStartVariables } from '../src/cli/start-variables.ts';

// Before the server's modules load (0.4 s): a process that replaces itself would load them twice.
withStartVariables(process.env, SERVER_V8_FLAGS);

const { forServer, loadEnv } = await import('../src/env.ts');
const { createNodeServer, closeGracefully } = await import('../src/server/node-server.ts');
const { staticHeaders } = await import('../src/site/static-headers.ts');
const { createLogger, requestLogger, requestStartLogger, swapLogger } = await import('../src/server/logging.ts');
const { SnapshotHolder } = await import('../src/server/snapshot-holder.ts');
const { createAppContext, installAppContext } = await import('../src/server/context.ts');
const { snapshotVerifier, verifyOffThread } = await import('../src/ops/verify.ts');
const { runServeCluster } = await import('../src/server/serve-cluster.ts');
const { ReleaseStatus } = await import('../src/server/release-status.ts');
const { OriginFollower } = await import('../src/ops/origin-follow.ts');
const { releasePaths } = await import('../src/ops/settings.ts');
const { warnKeysNotInRedis } = await import('../src/keys/keys-import.ts');

const env = (() => {
  try {
    return forServer(loadEnv());
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();
const logger = createLogger(env.logLevel);
const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

if (env.serveProcesses > 1 && cluster.isPrimary) {
  // Each forked process runs this file again, as a cluster worker, and takes the branch below.
  runServeCluster({ processes: env.serveProcesses, script: fileURLToPath(import.meta.url), logger });
} else {
  await serveInThisProcess();
}

async function serveInThisProcess(): Promise<void> {
  // The process's one holder (on the app context), shared by the API and the server-rendered pages, logs
  // swaps and verifies every new file. A bad snapshot at start exits 1: at once when
  // its structure or schema version is wrong, after its quick_check (on a worker,
  // while it already serves: 12 s at 1,000,000 providers) when the file is damaged.
  const exitBad = (reason: string) => {
    console.error(reason);
    logger.flush(() => process.exit(1));
  };
  const holder = new SnapshotHolder(env.directoryDb, {
    verify: snapshotVerifier,
    log: swapLogger(logger),
    verifyInBackground: verifyOffThread,
    onFirstFileBad: exitBad,
    embedder: env.embedder,
    searchingThreads: env.searchThreads + 1,
  });
  // With RELEASE_ORIGIN the node first installs what the origin announces (src/ops/origin-follow.ts),
  // so it listens with that release; then it polls, and the holder swaps each new snapshot.
  const release = env.releaseOrigin ? new ReleaseStatus(env.releaseOrigin) : undefined;
  const follower =
    env.releaseOrigin && release
      ? new OriginFollower({
          originUrl: env.releaseOrigin,
          pollMs: env.releasePollMs,
          paths: releasePaths(env),
          keep: 3,
          verify: verifyOffThread,
          vouch: (file) => holder.vouch(file),
          status: release,
          logger,
        })
      : undefined;
  await follower?.catchUp();
  // Installed for the server-rendered pages too (Astro's bundle reads it with appContext()).
  const context = installAppContext(createAppContext(env, { version, logger, snapshots: holder, release }));
  if (env.redisUrl) void warnKeysNotInRedis(env.keysDb, env.redisUrl, (message) => logger.warn(message));
  try {
    const snapshot = holder.current();
    logger.info({ snapshotId: snapshot.id, file: env.directoryDb }, 'snapshot opened');
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  holder.watch();
  follower?.start();

  /**
   * ASTRO_SERVER_ENTRY, else the server bundle rendered with the live site (a
   * release's server/ beside its client/), else the build output's server/.
   */
  function astroEntry(): string {
    if (env.astroServerEntry) return env.astroServerEntry;
    try {
      const beside = path.join(fs.realpathSync(env.staticRoot), '..', 'server', 'entry.mjs');
      if (fs.existsSync(beside)) return beside;
    } catch {
      // no static root yet
    }
    return path.join(env.distDir, 'server', 'entry.mjs');
  }

  const server = await createNodeServer({
    context,
    astroEntry: astroEntry(),
    headersFor: staticHeaders(env.securityHeaders).forPath,
    onRequestEnd: requestLogger(logger),
    onRequestStart: requestStartLogger(logger),
  });

  server.listen(env.port, env.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.port;
    logger.info({ port, host: env.host, staticRoot: env.staticRoot, searchThreads: env.searchThreads }, 'listening');
    console.log(`Provider directory listening on http://${env.host}:${port}`);
  });

  // One drain whatever arrives: a clustered process gets the primary's SIGTERM and,
  // under Ctrl-C, the terminal's SIGINT too; a second signal must not start a second drain.
  let draining = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, async () => {
      if (draining) return;
      draining = true;
      logger.info({ signal }, 'draining in-flight requests');
      follower?.stop();
      await closeGracefully(server);
      await context.close();
      logger.info('stopped');
      logger.flush(() => process.exit(0));
    });
  }
}
