/**
 * Requests node:http refuses before any handler runs, answered with the error
 * envelope instead of Node's bare status line: a header section (request line
 * included, so a 100,000-character URL) over 16 KB is 431 HEADERS_TOO_LARGE, a
 * client too slow to send its headers (HTTP_HEADERS_TIMEOUT_MS) or its request
 * (HTTP_REQUEST_TIMEOUT_MS) is 408 REQUEST_TIMEOUT, malformed HTTP is 400
 * BAD_REQUEST. The connection is closed after the answer; what the client is
 * still sending is read and dropped first, so it receives the answer rather than
 * a reset. On a keep-alive connection the refused request can arrive while the
 * previous answer is still on its way (ended, or still being computed for a
 * pipelined request): the refusal waits its turn behind that answer.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, type ErrorCode } from './errors.ts';

const LINGER_MS = 2_000;

function refusalOf(code: string | undefined): ApiError {
  const [errorCode, message]: [ErrorCode, string] =
    code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'The request line and headers must stay under 16 KB together (a URL that long is refused).']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'The request was not received in time.']
        : ['BAD_REQUEST', 'The request is not valid HTTP/1.1.'];
  return new ApiError(errorCode, message);
}

/** Sockets whose refusal is sent or waiting its turn: the parser stays in its error state and reports it again for every further piece the client sends. */
const refusing = new WeakSet<Duplex>();

/** `extra`: the security headers every answer of the server carries (src/web/security-headers.ts). */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, extra: Record<string, string>): void {
  if (err.code === 'ECONNRESET') return void socket.destroy();
  if (refusing.has(socket)) return; // already answered or about to be: keep reading and dropping until the linger ends
  refusing.add(socket);
  const inFlight = (socket as { _httpMessage?: http.ServerResponse | null })._httpMessage;
  // Bytes written to the socket go out in order, so an answer that has ended is
  // already ahead of the refusal; one not yet ended is waited for.
  if (inFlight && !inFlight.writableEnded) return void inFlight.once('finish', () => refuse(err, socket, extra));
  refuse(err, socket, extra);
}

function refuse(err: NodeJS.ErrnoException, socket: Duplex, extra: Record<string, string>): void {
  if (!socket.writable) return void socket.destroy();
  const refusal = refusalOf(err.code);
  const body = JSON.stringify(refusal.toBody());
  const head = [
    `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Access-Control-Allow-Origin: *',
    `X-Request-ID: ${randomUUID()}`,
    ...Object.entries(extra).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
