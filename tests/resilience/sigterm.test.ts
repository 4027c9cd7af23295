/**
 * SIGTERM under load loses no in-flight response. Keep-alive workers hammer the
 * server while slow requests (a POST /mcp whose body is still arriving) are in
 * flight; then SIGTERM. The server's debug log names every request it received,
 * so the test can check each one: every received request got a complete answer
 * (never a 5xx, never a cut connection), the slow ones included, and the process
 * exits 0. Requests the server never received (refused after it stopped
 * listening) are the only ones allowed to fail.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { createKey, deploymentEnv, generate, startNode, waitFor, workspace, type Node } from './fixture.ts';

let ws = '';
let env: Record<string, string> = {};
let node: Node;
let key = '';

interface Outcome {
  id: string;
  status?: number;
  complete?: boolean;
  error?: string;
}

function request(url: string, o: { id: string; method?: string; path: string; headers?: Record<string, string>; agent: http.Agent | false }): {
  req: http.ClientRequest;
  done: Promise<Outcome>;
} {
  const target = new URL(o.path, url);
  const req = http.request(target, { method: o.method ?? 'GET', agent: o.agent, headers: { 'x-request-id': o.id, ...o.headers } });
  const done = new Promise<Outcome>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const length = Buffer.concat(chunks).length;
        const declared = Number(res.headers['content-length'] ?? length);
        resolve({ id: o.id, status: res.statusCode, complete: res.complete && length === declared });
      });
      res.on('error', (e) => resolve({ id: o.id, status: res.statusCode, complete: false, error: e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ id: o.id, error: e.code ?? e.message }));
  });
  return { req, done };
}

beforeAll(async () => {
  ws = workspace('sigterm');
  const data = await generate(path.join(ws, 'data'), 100, 3);
  env = deploymentEnv(ws, { LOG_LEVEL: 'debug', ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  await buildSnapshot({ inputDir: data, outFile: env.DIRECTORY_DB! });
  key = createKey(env, 'enterprise');
  node = await startNode(env);
});

afterAll(async () => {
  await node?.stop('SIGKILL');
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('finishes every in-flight request after SIGTERM, then exits 0', async () => {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const paths = ['/api/v1/providers?limit=3', '/healthz', '/api/v1/categories', '/api/v1/search?q=website'];
  const workers = Array.from({ length: 8 }, async (_, w) => {
    for (let n = 0; !stopped; n++) {
      const r = request(node.url, { id: `w${w}-${n}`, path: paths[n % paths.length]!, agent });
      r.req.end();
      const o = await r.done;
      outcomes.push(o);
      if (o.error === 'ECONNREFUSED') break; // the server has stopped listening: nothing more to send
    }
  });
  await waitFor('load to build up', async () => (outcomes.length > 200 ? true : undefined));

  // Slow requests: headers and half the body now, the rest after SIGTERM.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
  const slow = Array.from({ length: 4 }, (_, i) =>
    request(node.url, {
      id: `slow-${i}`,
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-api-key': key },
      agent: false,
    }),
  );
  for (const s of slow) s.req.write(body.slice(0, 10));
  await waitFor('the slow requests to arrive', async () =>
    slow.every((_, i) => node.logs().some((l) => l.msg === 'request received' && l.requestId === `slow-${i}`)) ? true : undefined,
  );

  const exit = node.stop('SIGTERM');
  await waitFor('the drain to start', async () => (node.logs().some((l) => l.msg === 'draining in-flight requests') ? true : undefined));
  for (const s of slow) s.req.end(body.slice(10));
  const slowOutcomes = await Promise.all(slow.map((s) => s.done));
  expect(await exit).toBe(0);
  stopped = true;
  await Promise.all(workers);
  agent.destroy();

  expect(slowOutcomes).toEqual(slow.map((_, i) => ({ id: `slow-${i}`, status: 200, complete: true })));

  const logs = node.logs();
  const received = new Set(logs.filter((l) => l.msg === 'request received').map((l) => String(l.requestId)));
  const finished = new Set(logs.filter((l) => l.msg === 'request').map((l) => String(l.requestId)));
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  const lost = [...received].filter((id) => id.startsWith('w') && !(byId.get(id)?.complete === true && (byId.get(id)?.status ?? 500) < 500));
  expect(lost).toEqual([]);
  expect([...received].filter((id) => !finished.has(id))).toEqual([]);
  // Failures on the client side only for requests the server never received.
  const failed = outcomes.filter((o) => o.error !== undefined || o.complete !== true);
  expect(failed.filter((o) => received.has(o.id))).toEqual([]);
  expect(outcomes.filter((o) => o.status !== undefined && o.status >= 500)).toEqual([]);
  expect(outcomes.length).toBeGreaterThan(200);
  expect(logs.some((l) => l.msg === 'stopped')).toBe(true);
});
