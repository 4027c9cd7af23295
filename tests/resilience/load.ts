/**
 * Sustained concurrent load with autocannon, running until the test stops it, and
 * a tally a test can assert on: failures are 5xx answers, connection errors and
 * timeouts (a 429 is an answer), and every response must carry X-Request-ID.
 */
import { createRequire } from 'node:module';

export interface LoadRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface AutocannonResult {
  errors: number;
  timeouts: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  totalRequests: number;
  totalCompletedRequests: number;
}

type AutocannonRequest = LoadRequest & { onResponse: (status: number, body: string, context: unknown, headers: Record<string, string | string[]>) => void };

interface AutocannonInstance {
  stop(): void;
  on(event: 'reqError', listener: (err: Error) => void): void;
}

type Autocannon = (
  opts: { url: string; connections: number; duration: number; timeout: number; requests: AutocannonRequest[] },
  done: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadTally {
  responses: number;
  byStatus: Record<number, number>;
  /** Responses without an X-Request-ID header. */
  withoutRequestId: number;
  errors: number;
  timeouts: number;
  serverErrors: number;
  /** A few error messages, for the failure report. */
  errorSamples: string[];
}

export interface RunningLoad {
  /** Stops the load and resolves with the tally. */
  stop(): Promise<LoadTally>;
  /** Responses so far. */
  seen(): number;
}

export function startLoad(url: string, requests: LoadRequest[], connections = 10): RunningLoad {
  const tally: LoadTally = { responses: 0, byStatus: {}, withoutRequestId: 0, errors: 0, timeouts: 0, serverErrors: 0, errorSamples: [] };
  const onResponse = (status: number, _body: string, _ctx: unknown, headers: Record<string, string | string[]>) => {
    tally.responses++;
    tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
    if (status >= 500) tally.serverErrors++;
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'x-request-id')) tally.withoutRequestId++;
  };
  let resolveDone!: (r: AutocannonResult) => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<AutocannonResult>((res, rej) => {
    resolveDone = res;
    rejectDone = rej;
  });
  const instance = autocannon(
    { url, connections, duration: 600, timeout: 10, requests: requests.map((r) => ({ ...r, onResponse })) },
    (err, result) => (err ? rejectDone(err) : resolveDone(result)),
  );
  instance.on('reqError', (err) => {
    if (tally.errorSamples.length < 5) tally.errorSamples.push(err.message);
  });
  return {
    seen: () => tally.responses,
    async stop() {
      instance.stop();
      const result = await done;
      tally.errors = result.errors;
      tally.timeouts = result.timeouts;
      tally.serverErrors = Math.max(tally.serverErrors, result['5xx']);
      return tally;
    },
  };
}
