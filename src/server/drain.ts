/**
 * The node's SIGTERM drain, written so that no client sees a reset connection.
 *
 * `http.Server#close()` closes idle keep-alive connections at once, and a client
 * that is sending its next request on one at that moment gets ECONNRESET (50 of
 * them under 50 keep-alive clients, one per connection). So the drain instead:
 * stops listening (net.Server's close, which leaves open connections alone),
 * answers every request that arrives with `Connection: close` (the node server
 * reads `isDraining`), which makes both sides close that connection after the
 * answer, and closes only connections that have been idle for IDLE_GRACE_MS (a
 * client that has sent nothing for that long is not about to). Whatever is still
 * open after the timeout is cut.
 */
import http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';

const IDLE_GRACE_MS = 2_000;
const SWEEP_EVERY_MS = 100;

interface ConnectionState {
  busy: boolean;
  idleSince: number;
}

const connections = new WeakMap<http.Server, Map<Socket, ConnectionState>>();
const draining = new WeakSet<http.Server>();

/** Follows each connection's idle time (called once by createNodeServer). */
export function trackConnections(server: http.Server): void {
  const states = new Map<Socket, ConnectionState>();
  connections.set(server, states);
  server.on('connection', (socket: Socket) => {
    states.set(socket, { busy: false, idleSince: Date.now() });
    socket.once('close', () => states.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const state = states.get(req.socket);
    if (!state) return;
    state.busy = true;
    res.once('close', () => {
      state.busy = false;
      state.idleSince = Date.now();
    });
  });
}

export const isDraining = (server: http.Server): boolean => draining.has(server);

/**
 * Stops accepting connections, lets in-flight requests finish and answers the
 * ones arriving on open connections with `Connection: close`, closes connections
 * idle for IDLE_GRACE_MS, then resolves. After timeoutMs whatever is left is cut.
 */
export function closeGracefully(server: http.Server, timeoutMs = 10_000): Promise<void> {
  draining.add(server);
  const states = connections.get(server);
  return new Promise((resolve) => {
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, state] of states ?? []) if (!state.busy && now - state.idleSince >= IDLE_GRACE_MS) socket.destroy();
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
