/**
 * Structured logs (pino, one JSON object per line on stdout): one line per request
 * with its request id, method, route, status and latency, plus snapshot swaps and
 * faults. What is logged is chosen field by field, never a whole request, so a key
 * or a query string cannot slip in: the route is the path without its query, with
 * slugs collapsed, and anything shaped like an API key is masked as a last guard.
 */
import pino, { type Logger, type DestinationStream } from 'pino';
import type { LogLevel } from '../env.ts';
import type { SwapEvent } from './snapshot-holder.ts';

/** Headers that carry secrets: redacted wherever a log line holds request headers. */
export const SECRET_HEADER_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'apiKey',
  'key',
];

// Our keys (pdk_live_ + 43 base64url) and any Bearer token.
const KEY_LIKE = /pdk_live_[A-Za-z0-9_-]+|Bearer\s+\S+/gi;

export function maskSecrets(text: string): string {
  return text.replace(KEY_LIKE, '[REDACTED]');
}

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: SECRET_HEADER_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}

/** What the node server (src/server/node-server.ts) says of each finished request. */
export interface RequestLogInfo {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

/** The node server's onRequestEnd hook: one line per finished request. */
export function requestLogger(logger: Logger): (info: RequestLogInfo) => void {
  return (info) => {
    const line = {
      requestId: info.requestId,
      method: info.method,
      route: maskSecrets(info.route),
      status: info.status,
      ms: Math.round(info.ms * 10) / 10,
    };
    if (info.status >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request');
  };
}

/** Debug level only: one line when a request arrives, so a drain can be audited request by request. */
export function requestStartLogger(logger: Logger): ((info: { requestId: string; method: string }) => void) | undefined {
  if (!logger.isLevelEnabled('debug')) return undefined;
  return (info) => logger.debug({ requestId: info.requestId, method: info.method }, 'request received');
}

/** The snapshot holder's log hook. */
export function swapLogger(logger: Logger): (event: SwapEvent) => void {
  return (event) => {
    if (event.kind === 'swapped') {
      logger.info({ snapshotId: event.snapshotId, previousId: event.previousId, file: event.file }, 'snapshot swapped');
    } else {
      logger.warn(
        { file: event.file, reason: maskSecrets(event.reason ?? ''), servingId: event.snapshotId },
        'snapshot refused; still serving the previous one',
      );
    }
  };
}
