/**
 * SEARCH_THREADS=1: `npm run serve` runs searches on a worker thread of the same
 * process as well as on the main thread. Over real HTTP, against two servers
 * with SEARCH_THREADS=0 (one on snapshot A, one on snapshot B): the same bodies for
 * a set of searches (the search route, the provider list with q, the AI
 * endpoint), the same 4xx envelopes for bad input, and across a hot swap under
 * concurrent searches every answer is exactly the reference answer of the
 * snapshot its X-Snapshot-Id names (never a mix of the two).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverSearchThreads } from '../../src/env.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { createKey, deploymentEnv, generate, healthId, startNode, waitFor, workspace, type Node } from './fixture.ts';

let ws = '';
let env: Record<string, string> = {};
let nextSnapshot = '';
let threaded: Node;
let refA: Node;
let refB: Node;
const keys = new Map<Node, string>();

interface Answer {
  status: number;
  snapshotId: string;
  body: unknown;
}

/** The body without what differs between two runs of the same search (the AI endpoint's own timing). */
function comparable(body: unknown): unknown {
  const b = body as { meta?: { tookMs?: number } };
  if (b.meta?.tookMs !== undefined) return { ...b, meta: { ...b.meta, tookMs: 0 } };
  return body;
}

async function get(node: Node, pathAndQuery: string): Promise<Answer> {
  const key = keys.get(node);
  const res = await fetch(node.url + pathAndQuery, { headers: pathAndQuery.startsWith('/api/ai/') && key ? { 'x-api-key': key } : {} });
  return { status: res.status, snapshotId: res.headers.get('x-snapshot-id') ?? '', body: comparable(await res.json()) };
}

/** Searches built from the snapshot's own taglines (words, pairs, with and without filters) plus common words. */
async function searchPaths(ref: Node): Promise<string[]> {
  const list = (await get(ref, '/api/v1/providers?limit=12')).body as { data: { tagline: string; city: string }[] };
  const paths: string[] = [];
  for (const { tagline, city } of list.data) {
    const words = tagline.toLowerCase().split(/\s+/).filter((w) => w.length > 2);
    const q = encodeURIComponent(words.slice(0, 2).join(' '));
    paths.push(`/api/v1/search?q=${q}`, `/api/v1/search?q=${encodeURIComponent(words.at(-1)!)}&city=${encodeURIComponent(city)}&limit=5`);
    paths.push(`/api/v1/providers?q=${q}&sort=rating`, `/api/ai/recommend?q=${q}&limit=3`);
  }
  paths.push('/api/v1/search?q=di%20dari%20untuk', '/api/v1/search?q=jasa&page=2&limit=3', '/api/v1/search?q=zzzqqq%20xyzzy');
  return paths;
}

const BAD_INPUT = [
  '/api/v1/search',
  '/api/v1/search?q=a',
  '/api/v1/search?q=%20%20',
  '/api/v1/search?q=%C3%A9&city=Bandung',
  '/api/ai/recommend?q=',
  '/api/ai/recommend?q=x',
];

/** The node's log says its search thread has snapshot `id` open (searches of it then go to the thread when it is idle). */
const threadOpened = (node: Node, id: string) =>
  waitFor(`the search thread to open ${id}`, async () => {
    await get(node, '/api/v1/search?q=jasa'); // a snapshot's first search asks the threads to open it
    return node.logs().some((l) => l.msg === 'search thread opened the snapshot' && l.snapshotId === id) ? true : undefined;
  });

beforeAll(async () => {
  ws = workspace('search-threads');
  env = deploymentEnv(ws, { SEARCH_THREADS: '1', ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  // The references search on the main thread only (a server's default on two cores is one thread).
  const envA = deploymentEnv(path.join(ws, 'refA'), { SEARCH_THREADS: '0', ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  const envB = deploymentEnv(path.join(ws, 'refB'), { SEARCH_THREADS: '0', ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  for (const e of [env, envA, envB]) fs.mkdirSync(path.dirname(e.DIRECTORY_DB!), { recursive: true });
  await buildSnapshot({ inputDir: await generate(path.join(ws, 'dataA'), 120, 5), outFile: env.DIRECTORY_DB! });
  nextSnapshot = path.join(ws, 'next.db');
  await buildSnapshot({ inputDir: await generate(path.join(ws, 'dataB'), 120, 6), outFile: nextSnapshot });
  fs.copyFileSync(env.DIRECTORY_DB!, envA.DIRECTORY_DB!);
  fs.copyFileSync(nextSnapshot, envB.DIRECTORY_DB!);
  [threaded, refA, refB] = await Promise.all([startNode(env), startNode(envA), startNode(envB)]);
  keys.set(threaded, createKey(env, 'regular'));
  keys.set(refA, createKey(envA, 'regular'));
  keys.set(refB, createKey(envB, 'regular'));
});

afterAll(async () => {
  await Promise.all([threaded, refA, refB].map((n) => n?.stop('SIGKILL')));
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

it('answers searches with the same bodies as a server without search threads', async () => {
  const idA = await healthId(refA.url);
  expect(await healthId(threaded.url)).toBe(idA);
  await threadOpened(threaded, idA);
  const paths = await searchPaths(refA);
  for (const p of paths) {
    const [mine, reference] = [await get(threaded, p), await get(refA, p)];
    expect({ p, status: mine.status, body: mine.body }).toEqual({ p, status: reference.status, body: reference.body });
  }
  // the set is not vacuous: most searches found something
  const found = await Promise.all(paths.map(async (p) => ((await get(refA, p)).body as { data?: unknown[] }).data?.length ?? 0));
  expect(found.filter((n) => n > 0).length).toBeGreaterThan(paths.length / 2);
});

it('answers bad input with the same 4xx envelopes', async () => {
  for (const p of BAD_INPUT) {
    const [mine, reference] = [await get(threaded, p), await get(refA, p)];
    expect(mine.status, p).toBeGreaterThanOrEqual(400);
    expect(mine.status, p).toBeLessThan(500);
    expect({ p, status: mine.status, body: mine.body }).toEqual({ p, status: reference.status, body: reference.body });
  }
});

it('after a hot swap under concurrent searches, answers each search from exactly one snapshot', async () => {
  const [idA, idB] = [await healthId(refA.url), await healthId(refB.url)];
  const paths = (await searchPaths(refA)).filter((p) => !p.startsWith('/api/ai/'));
  const reference = new Map<string, unknown>();
  for (const [ref, id] of [
    [refA, idA],
    [refB, idB],
  ] as const) {
    for (const p of paths) reference.set(`${id} ${p}`, (await get(ref, p)).body);
  }
  // the two snapshots answer differently, so a mixed answer would show
  expect(paths.some((p) => JSON.stringify(reference.get(`${idA} ${p}`)) !== JSON.stringify(reference.get(`${idB} ${p}`)))).toBe(true);

  let swapped = false;
  const answers: (Answer & { p: string })[] = [];
  const client = async (offset: number) => {
    for (let i = offset; !swapped || i < offset + 3 * paths.length; i++) {
      const p = paths[i % paths.length]!;
      answers.push({ p, ...(await get(threaded, p)) });
    }
  };
  const clients = Promise.all([0, 1, 2, 3, 4, 5].map((c) => client(c * 5)));
  fs.renameSync(nextSnapshot, env.DIRECTORY_DB!);
  await waitFor('the swap', async () => ((await healthId(threaded.url)) === idB ? true : undefined));
  swapped = true;
  await clients;
  await threadOpened(threaded, idB);
  for (const p of paths) answers.push({ p, ...(await get(threaded, p)) });

  expect(answers.filter((a) => a.snapshotId === idB).length).toBeGreaterThan(paths.length);
  for (const a of answers) {
    expect([idA, idB]).toContain(a.snapshotId);
    expect({ p: a.p, status: a.status, body: a.body }).toEqual({ p: a.p, status: 200, body: reference.get(`${a.snapshotId} ${a.p}`) });
  }
});

it('takes the server default when SEARCH_THREADS is unset, and names the count in its listening line', async () => {
  const listening = (node: Node) => node.logs().find((l) => l.msg === 'listening');
  expect(listening(threaded)?.searchThreads).toBe(1);
  expect(listening(refA)?.searchThreads).toBe(0);
  const defaultEnv = deploymentEnv(path.join(ws, 'default'), { ASTRO_SERVER_ENTRY: path.join(ws, 'no-astro-entry.mjs') });
  fs.mkdirSync(path.dirname(defaultEnv.DIRECTORY_DB!), { recursive: true });
  fs.copyFileSync(path.join(ws, 'refB', 'live', 'directory.db'), defaultEnv.DIRECTORY_DB!);
  const node = await startNode(defaultEnv);
  try {
    const line = await waitFor('the listening line', async () => listening(node));
    expect(line.searchThreads).toBe(serverSearchThreads(1, 'builtin'));
    expect((await get(node, '/api/v1/search?q=jasa')).status).toBe(200);
  } finally {
    await node.stop('SIGKILL');
  }
});
