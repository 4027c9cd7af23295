/**
 * The fault suite's parts (npm run test:faults): real snapshots built by the real
 * builder, the real server (scripts/serve.ts) in a child process, a real
 * redis-server, and a load client of our own: N keep-alive connections on
 * 127.0.0.1, each sending its next request when the last one answered, so the
 * load is bounded (N requests in flight) and every single answer can be checked
 * (status, X-Snapshot-Id, body) and every failure classified: a request written
 * on an open connection that got no full answer is a failure; a new connection
 * refused because the server has stopped listening is not (nothing was accepted).
 *
 * Figures (requests sent, failures, 5xx, ...) go to stdout and to
 * .tmp/fault-figures.json; docs/operations.md reports them.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../resilience/fixture.ts';

export interface LoadRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  request: LoadRequest;
  worker: number;
  status: number;
  snapshotId: string | undefined;
  contentType: string | undefined;
  body: string;
}

export interface LoadFigures {
  sent: number;
  answered: number;
  byStatus: Record<number, number>;
  serverErrors: number;
  /** requests written on an open connection without a full answer */
  failures: number;
  /** X-Request-ID of each failure on a new connection (the server may never have received it: match against its log) */
  failedOnNewConnection: string[];
  /** new connections refused after the server stopped listening (never accepted) */
  refused: number;
  errorSamples: string[];
}

export interface RunningLoad {
  answered(): number;
  stop(): Promise<LoadFigures>;
}

/** `connections` workers, each with its own keep-alive connection, until stop(). */
export function startLoad(url: string, connections: number, next: (worker: number, n: number) => LoadRequest, onAnswer?: (a: Answer) => void): RunningLoad {
  const figures = emptyFigures();
  let stopped = false;
  const target = new URL(url);
  const workers = Array.from({ length: connections }, async (_, worker) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; !stopped; n++) {
      const request = next(worker, n);
      figures.sent++;
      const outcome = await send(target, agent, request);
      const answer = tally(figures, request, worker, outcome);
      if (answer) onAnswer?.(answer);
      else if ('error' in outcome && outcome.error === 'ECONNREFUSED' && !outcome.reused) break; // the server stopped listening
    }
    agent.destroy();
  });
  return {
    answered: () => figures.answered,
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return figures;
    },
  };
}

/** Sends every request once over `connections` keep-alive connections; resolves with the figures when all are answered. */
export async function sendAll(url: string, connections: number, requests: LoadRequest[], onAnswer: (a: Answer) => void): Promise<LoadFigures> {
  const figures = emptyFigures();
  const target = new URL(url);
  let next = 0;
  const workers = Array.from({ length: connections }, async (_, worker) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = next++; i < requests.length; i = next++) {
      figures.sent++;
      const answer = tally(figures, requests[i]!, worker, await send(target, agent, requests[i]!));
      if (answer) onAnswer(answer);
    }
    agent.destroy();
  });
  await Promise.all(workers);
  return figures;
}

const emptyFigures = (): LoadFigures => ({ sent: 0, answered: 0, byStatus: {}, serverErrors: 0, failures: 0, failedOnNewConnection: [], refused: 0, errorSamples: [] });

/** Counts one outcome; the answer, or undefined for a failure or a refused connection. */
function tally(figures: LoadFigures, request: LoadRequest, worker: number, outcome: Outcome): Answer | undefined {
  if ('error' in outcome) {
    if (outcome.error === 'ECONNREFUSED' && !outcome.reused) figures.refused++;
    else {
      figures.failures++;
      if (!outcome.reused) figures.failedOnNewConnection.push(request.headers?.['x-request-id'] ?? request.path);
      if (figures.errorSamples.length < 5) figures.errorSamples.push(`${request.path.slice(0, 80)}: ${outcome.error} (reused connection: ${outcome.reused})`);
    }
    return undefined;
  }
  figures.answered++;
  figures.byStatus[outcome.status] = (figures.byStatus[outcome.status] ?? 0) + 1;
  if (outcome.status >= 500) figures.serverErrors++;
  return { request, worker, ...outcome };
}

type Outcome = { status: number; snapshotId: string | undefined; contentType: string | undefined; body: string } | { error: string; reused: boolean };

function send(target: URL, agent: http.Agent, r: LoadRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request({ hostname: target.hostname, port: target.port, path: r.path, method: r.method ?? 'GET', headers: r.headers, agent });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const declared = res.headers['content-length'];
        if (!res.complete || (declared !== undefined && Number(declared) !== body.length)) return resolve({ error: 'incomplete body', reused: req.reusedSocket });
        resolve({ status: res.statusCode!, snapshotId: res.headers['x-snapshot-id'] as string | undefined, contentType: res.headers['content-type'], body: body.toString() });
      });
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message, reused: req.reusedSocket }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message, reused: req.reusedSocket }));
    req.end(r.body);
  });
}

/** The figures docs/operations.md reports. */
export function summary(f: LoadFigures) {
  return { sent: f.sent, answered: f.answered, failures: f.failures, serverErrors: f.serverErrors, refusedAfterStop: f.refused };
}

/** Waits until `count` more answers arrived (bounds a wait; never a timed assertion). */
export async function answersPast(load: RunningLoad, count: number, ms = 60_000): Promise<void> {
  const goal = load.answered() + count;
  const deadline = Date.now() + ms;
  while (load.answered() < goal) {
    if (Date.now() > deadline) throw new Error(`load stalled at ${load.answered()} answers (wanted ${goal})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const FIGURES_FILE = path.join(ROOT, '.tmp', 'fault-figures.json');

/** Prints one test's figures and keeps them in .tmp/fault-figures.json (merged by name). */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
  const all = fs.existsSync(FIGURES_FILE) ? (JSON.parse(fs.readFileSync(FIGURES_FILE, 'utf8')) as Record<string, unknown>) : {};
  all[name] = { ...figures, at: new Date().toISOString() };
  fs.writeFileSync(FIGURES_FILE, JSON.stringify(all, null, 2) + '\n');
  console.log(`[faults] ${name}: ${JSON.stringify(figures)}`);
}
