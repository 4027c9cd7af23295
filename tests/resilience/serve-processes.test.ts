/**
 * SERVE_PROCESSES=2: `npm run serve` (scripts/serve.ts) runs two whole server
 * processes on one port under a cluster primary. Over real HTTP: answers come
 * from two process ids (GET /healthz reports its pid), a snapshot dropped in
 * place reaches both, SIGTERM under keep-alive load drains both with no cut
 * connection and exits 0, and a server process that dies takes the node down
 * with exit 1 instead of leaving it quietly on one process.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVER_V8_FLAGS } from '../../src/cli/server-heap.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { deploymentEnv, generate, startNode, waitFor, workspace, type Node } from './fixture.ts';

let ws = '';
let env: Record<string, string> = {};
let nextSnapshot = '';
let node: Node;

interface Health {
  pid: number;
  snapshot: { id: string };
}

/** GET /healthz on a connection of its own, so the cluster may hand it to either process. */
function healthOnNewConnection(url: string): Promise<Health> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/healthz`, { agent: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve(JSON.parse(body) as Health));
      })
      .on('error', reject);
  });
}

/** The snapshot id each server process answers with, once both have answered. */
async function idsByPid(url: string, want: (byPid: Map<number, string>) => boolean): Promise<Map<number, string>> {
  const byPid = new Map<number, string>();
  return waitFor('answers from both server processes', async () => {
    for (let i = 0; i < 4; i++) {
      const h = await healthOnNewConnection(url);
      byPid.set(h.pid, h.snapshot.id);
    }
    return want(byPid) ? byPid : undefined;
  });
}

const exitCode = (n: Node) =>
  n.child.exitCode !== null ? Promise.resolve(n.child.exitCode) : new Promise<number | null>((resolve) => n.child.once('exit', resolve));

beforeAll(async () => {
  ws = workspace('serve-processes');
  env = deploymentEnv(ws, { SERVE_PROCESSES: '2', LOG_LEVEL: 'debug', ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  await buildSnapshot({ inputDir: await generate(path.join(ws, 'dataA'), 100, 3), outFile: env.DIRECTORY_DB! });
  nextSnapshot = path.join(ws, 'next.db');
  await buildSnapshot({ inputDir: await generate(path.join(ws, 'dataB'), 100, 4), outFile: nextSnapshot });
  node = await startNode(env);
});

afterAll(async () => {
  await node?.stop('SIGKILL');
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('answers from two server processes, neither of them the primary', async () => {
  const byPid = await idsByPid(node.url, (m) => m.size >= 2);
  expect(byPid.size).toBe(2);
  expect(byPid.has(node.child.pid!)).toBe(false);
  expect(new Set(byPid.values()).size).toBe(1);
});

it.runIf(process.platform === 'linux')('runs the primary and both server processes with the allocator setting and the V8 flags (src/cli/start-variables.ts, server-heap.ts)', async () => {
  const byPid = await idsByPid(node.url, (m) => m.size >= 2);
  const thresholdOf = (pid: number) =>
    fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((kv) => kv.startsWith('MALLOC_MMAP_THRESHOLD_='));
  const argsOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  for (const pid of [node.child.pid!, ...byPid.keys()]) {
    expect(thresholdOf(pid)).toBe(`MALLOC_MMAP_THRESHOLD_=${1024 * 1024}`);
    expect(argsOf(pid)).toEqual(expect.arrayContaining([...SERVER_V8_FLAGS]));
  }
});

it('hot-swaps the snapshot in both processes', async () => {
  const before = [...(await idsByPid(node.url, (m) => m.size >= 2)).values()][0]!;
  // The same move a release makes: a new file renamed over DIRECTORY_DB.
  fs.renameSync(nextSnapshot, env.DIRECTORY_DB!);
  const after = await idsByPid(node.url, (m) => m.size === 2 && [...m.values()].every((id) => id !== before));
  expect(new Set(after.values()).size).toBe(1);
  const swaps = node.logs().filter((l) => l.msg === 'snapshot swapped');
  expect(new Set(swaps.map((l) => l.pid))).toEqual(new Set(after.keys()));
});

it('drains both processes on SIGTERM under keep-alive load and exits 0', async () => {
  const pids = [...(await idsByPid(node.url, (m) => m.size >= 2)).keys()];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const failures: string[] = [];
  let answered = 0;
  let listening = true;
  const get = () =>
    new Promise<void>((resolve) => {
      http
        .get(`${node.url}/api/v1/search?q=website`, { agent }, (res) => {
          let length = 0;
          res.on('data', (d: Buffer) => (length += d.length));
          res.on('end', () => {
            if (res.statusCode !== 200 || !res.complete || length !== Number(res.headers['content-length'] ?? length)) failures.push(`status ${res.statusCode}`);
            answered++;
            resolve();
          });
        })
        .on('error', (e: NodeJS.ErrnoException) => {
          // Refused only once the node has stopped listening; any other error is a cut connection.
          if (e.code === 'ECONNREFUSED') listening = false;
          else failures.push(e.code ?? e.message);
          resolve();
        });
    });
  const clients = Array.from({ length: 8 }, async () => {
    while (listening) await get();
  });
  await waitFor('load to build up', async () => (answered > 200 ? true : undefined));
  const code = await node.stop('SIGTERM');
  listening = false;
  await Promise.all(clients);
  agent.destroy();

  expect(code).toBe(0);
  expect(failures).toEqual([]);
  const logs = node.logs();
  expect(new Set(logs.filter((l) => l.msg === 'stopped').map((l) => l.pid))).toEqual(new Set(pids));
  expect(logs.some((l) => l.msg === 'all server processes stopped' && l.failed === false)).toBe(true);
});

it('exits 1 when a server process dies, stopping the other one', async () => {
  const second = await startNode(env);
  try {
    const pids = [...(await idsByPid(second.url, (m) => m.size >= 2)).keys()];
    process.kill(pids[0]!, 'SIGKILL');
    expect(await exitCode(second)).toBe(1);
    const logs = second.logs();
    expect(logs.some((l) => l.msg === 'server process died; stopping the others' && l.workerPid === pids[0] && l.signal === 'SIGKILL')).toBe(true);
    expect(logs.some((l) => l.msg === 'stopped' && l.pid === pids[1])).toBe(true);
  } finally {
    await second.stop('SIGKILL');
  }
});
