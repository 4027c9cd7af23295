/**
 * The node's SIGTERM drain, written so that no client sees a reset connection.
 *
 * `http.Server#close()` closes idle keep-alive connections at once, and a client
 * that is sending its next request on one at that moment gets ECONNRESET (50 of
 * them under 50 keep-alive clients, one per connection). So the drain instead:
 * stops listening (net.Server's close, which leaves open connections alone),
 * answers every request that arrives with `Connection: close` (the node server
 * reads `isDraining`), which makes both sides close that connection after the
 * answer, and closes only connections seen idle at every check for IDLE_GRACE_MS
 * (a client that has sent nothing for that long is not about to). Whatever is still
 * open after the timeout is cut.
 */
import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';

const IDLE_GRACE_MS = 2_000;
const SWEEP_EVERY_MS = 100;
const STOP_LISTENING_GRACE_MS = 250;

// State of each server object (what a property on it would hold), not a cache: it goes with the server.
const connections = new WeakMap<http.Server, Set<Socket>>();
const draining = new WeakSet<http.Server>();

/**
 * Remembers each open connection (called once by createNodeServer). Per
 * connection, not per request: the request path stays as lean as before.
 */
export function trackConnections(server: http.Server): void {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/** A connection with no response in progress (node:http keeps the one being answered on the socket). */
const isIdle = (socket: Socket) => !(socket as { _httpMessage?: unknown })._httpMessage;

export const isDraining = (server: http.Server): boolean => draining.has(server);

/**
 * Stops accepting connections, lets in-flight requests finish and answers the
 * ones arriving on open connections with `Connection: close`, closes connections
 * idle for IDLE_GRACE_MS, then resolves. After timeoutMs whatever is left is cut.
 */
export function closeGracefully(server: http.Server, timeoutMs = 10_000): Promise<void> {
  // Answers turn to `Connection: close` only a moment after listening stops. Under
  // SERVE_PROCESSES the cluster primary accepts connections and hands them over;
  // one accepted before it learns that this process stopped listening reaches a
  // closed server and is reset. Clients reconnect only after a `Connection: close`
  // answer, so holding those back until the primary has caught up leaves no
  // reconnect in flight (a later one is refused, never reset).
  setTimeout(() => draining.add(server), STOP_LISTENING_GRACE_MS).unref();
  const open = connections.get(server) ?? new Set<Socket>();
  // When each connection was first seen idle, reset whenever it is seen answering.
  const idleSince = new Map<Socket, number>();
  return new Promise((resolve) => {
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const socket of open) {
        if (!isIdle(socket)) idleSince.delete(socket);
        else if (!idleSince.has(socket)) idleSince.set(socket, now);
        else if (now - idleSince.get(socket)! >= IDLE_GRACE_MS) socket.destroy();
      }
    }, SWEEP_EVERY_MS);
    const finish = () => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      server.closeAllConnections();
      finish();
    }, timeoutMs);
    timer.unref();
    net.Server.prototype.close.call(server, finish);
  });
}
