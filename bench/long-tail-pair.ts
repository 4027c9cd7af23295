/**
 * Same-minute before/after of the long-tail HTTP run on a shared machine: two
 * checkouts' `npm run serve` (e.g. a worktree of the previous commit and this one), started in
 * turn on one snapshot with API_RESPONSE_CACHE_MB=0, each loaded like
 * bench/long-tail-http.ts (a settling load of other distinct queries, the wait for
 * the snapshot's full integrity check, then 50 connections over the 5,000 long-tail
 * URLs), alternated old/new `--pairs` times.
 *
 * The main figure is the server's CPU per request: the user + system time of the
 * server process (and its children with SERVE_PROCESSES > 1) during the measured
 * load over the requests answered. It moves less than req/s with what else the
 * machine runs, but still rises under heavy load (shared caches and cores): compare
 * runs of the same minutes only. `--compare N` first checks that both answer the
 * first N URLs with the same status and the same body bytes.
 *
 *   node bench/long-tail-pair.ts --db FILE --old ../previous-checkout --new . [--pairs 3] [--seconds 15] [--compare 3000]
 *     [--serve-processes N] [--old-env K=V ...] [--new-env K=V ...]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load, rssMbOfTree, serverEnv, stop } from './http.ts';
import { waitVerified } from './long-tail-http.ts';
import { buildLongTailMix, longTailPath } from './long-tail-queries.ts';
import { progress } from './log.ts';
import { round } from './stats.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    old: { type: 'string' },
    new: { type: 'string' },
    pairs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '50' },
    queries: { type: 'string', default: '5000' },
    'serve-processes': { type: 'string', default: '1' },
    compare: { type: 'string', default: '0' },
    'old-env': { type: 'string', multiple: true, default: [] },
    'new-env': { type: 'string', multiple: true, default: [] },
  },
});
/** KEY=VALUE settings one side's server gets on top of the benchmark's (e.g. NODE_OPTIONS). */
const extraEnv = (pairs: string[]) => Object.fromEntries(pairs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const sideEnv = { old: extraEnv(values['old-env']), new: extraEnv(values['new-env']) };
if (!values.db || !values.old || !values.new) throw new Error('usage: --db FILE --old DIR --new DIR [--pairs N] [--seconds S] [--compare N]');
const snapshotFile = path.resolve(values.db);

const CLOCK_TICKS = 100;
/** user + system CPU seconds of a process and its children (/proc/PID/stat fields 14 and 15). */
function cpuSecondsOfTree(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]);
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // no children list: the process's own time
  }
  for (const child of children) ticks += cpuSecondsOfTree(child) * CLOCK_TICKS;
  return ticks / CLOCK_TICKS;
}

async function start(dir: string, tmp: string, extra: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  const env: NodeJS.ProcessEnv = { ...serverEnv(snapshotFile, tmp), API_RESPONSE_CACHE_MB: '0', SERVE_PROCESSES: values['serve-processes'], ...extra };
  delete env.CI;
  const child = spawn(process.execPath, ['scripts/serve.ts'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server in ${dir} exited (${code}):\n${out.slice(-2000)}`)));
  });
  return { child, port };
}

async function requestAll(port: number, paths: string[], connections: number, onBody?: (i: number, status: number, body: Buffer) => void) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      const res = await fetch(`http://127.0.0.1:${port}${paths[i]}`);
      const body = Buffer.from(await res.arrayBuffer());
      onBody?.(i, res.status, body);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

const paths = buildLongTailMix(snapshotFile, Number(values.queries)).map(longTailPath);
const measured = new Set(paths);
const settlePaths = buildLongTailMix(snapshotFile, 1000, 29).map(longTailPath).filter((p) => !measured.has(p));
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'long-tail-pair-'));

try {
  const compare = Number(values.compare);
  if (compare > 0) {
    const checked = paths.slice(0, compare);
    const bodies: { status: number; body: Buffer }[][] = [[], []];
    for (const [side, dir] of [values.old, values.new].entries()) {
      const server = await start(dir, path.join(tmpRoot, `cmp-${side}`), side === 0 ? sideEnv.old : sideEnv.new);
      try {
        progress(`compare: ${checked.length} URLs on ${dir} ...`);
        await requestAll(server.port, checked, 4, (i, status, body) => (bodies[side]![i] = { status, body }));
      } finally {
        await stop(server.child);
      }
    }
    const differing = checked.filter((_, i) => bodies[0]![i]!.status !== bodies[1]![i]!.status || !bodies[0]![i]!.body.equals(bodies[1]![i]!.body));
    const bytes = bodies[1]!.reduce((sum, b) => sum + b.body.length, 0);
    process.stdout.write(`${JSON.stringify({ compared: checked.length, differing: differing.length, firstDiffering: differing.slice(0, 5), meanBodyBytes: Math.round(bytes / checked.length) })}\n`);
    if (differing.length > 0) process.exitCode = 1;
  }
  for (let pair = 0; pair < Number(values.pairs); pair++) {
    for (const [label, dir] of [['old', values.old], ['new', values.new]] as const) {
      const server = await start(dir, path.join(tmpRoot, `${label}-${pair}`), sideEnv[label]);
      try {
        await requestAll(server.port, ['/api/v1/search?q=first+answer'], 1);
        progress(`${label} (${dir}): settling ...`);
        await requestAll(server.port, settlePaths, 8);
        // At 1,000,000 providers the full integrity check runs on a thread for 15 s after the first
        // answer: measured beside it, a pair's first run read 231 req/s at 1.57 cores, the same
        // server a minute later 327 at 1.07.
        await waitVerified(server.port, Number(values['serve-processes']));
        const load1 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
        const cpuBefore = cpuSecondsOfTree(server.child.pid!);
        const figure = await load(server.port, paths, Number(values.connections), Number(values.seconds));
        const cpu = cpuSecondsOfTree(server.child.pid!) - cpuBefore;
        const row = {
          pair,
          label,
          rps: figure.rps,
          p50Ms: figure.p50Ms,
          p99Ms: figure.p99Ms,
          requests: figure.requests,
          errors: figure.errors,
          timeouts: figure.timeouts,
          non2xx: figure.non2xx,
          serverCpuMsPerRequest: round((cpu * 1000) / figure.requests, 3),
          serverCpuCores: round(cpu / Number(values.seconds), 2),
          rssMb: rssMbOfTree(server.child.pid),
          load1,
        };
        process.stdout.write(`${JSON.stringify(row)}\n`);
      } finally {
        await stop(server.child);
      }
    }
  }
} finally {
  fs.rmSync(tmpRoot, { recursive: true, force: true });
}
