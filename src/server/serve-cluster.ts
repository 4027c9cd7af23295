/**
 * SERVE_PROCESSES > 1: the cluster primary of `npm run serve`. It serves nothing
 * itself: it forks N copies of scripts/serve.ts, each a whole server (own app
 * context, own snapshot holder watching DIRECTORY_DB, own drain), and node:cluster
 * hands the one port's connections to them in turn.
 *
 * A server process that dies is not restarted here: the primary logs it, stops
 * the others (SIGTERM, so they drain) and exits 1, so the supervisor that
 * restarts a single-process node (systemd, the container runtime) sees the
 * failure and restarts the whole node, rather than a node quietly running on
 * fewer processes than configured. SIGTERM/SIGINT are relayed to every process
 * as SIGTERM; the primary exits 0 once all have drained and exited 0.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

export interface ServeClusterOptions {
  processes: number;
  /** the script each server process runs (scripts/serve.ts, also when `npm start` is the entry) */
  script: string;
  logger: Logger;
}

export function runServeCluster({ processes, script, logger }: ServeClusterOptions): void {
  cluster.setupPrimary({ exec: script });
  const running = new Set<Worker>();
  let stopping = false;
  let failed = false;

  const stopAll = () => {
    stopping = true;
    for (const worker of running) worker.process.kill('SIGTERM');
  };

  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker);
    const pid = worker.process.pid;
    if (stopping && code === 0) {
      logger.info({ workerPid: pid }, 'server process stopped');
    } else {
      failed = true;
      logger.error({ workerPid: pid, code, signal }, stopping ? 'server process failed while stopping' : 'server process died; stopping the others');
      if (!stopping) stopAll();
    }
    if (running.size === 0) {
      logger.info({ failed }, 'all server processes stopped');
      logger.flush(() => process.exit(failed ? 1 : 0));
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // `on`, not `once`: a second signal (Ctrl-C pressed twice) must not kill the primary mid-drain.
    process.on(signal, () => {
      if (stopping) return;
      logger.info({ signal, processes: running.size }, 'relaying SIGTERM to the server processes');
      stopAll();
    });
  }

  for (let i = 0; i < processes; i++) running.add(cluster.fork());
  logger.info({ processes, workerPids: [...running].map((w) => w.process.pid) }, 'server processes started');
}
