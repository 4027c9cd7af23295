/**
 * Runs a command as a child process and measures it: wall time and peak resident
 * memory of its whole process tree (Astro starts helpers of its own).
 * Memory is sampled from /proc every 100 ms: the sum of VmRSS over the tree, and
 * each process's own high-water mark (VmHWM), which catches spikes between samples.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface ChildRun {
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  /** null when /proc is not readable (not Linux) */
  peakRssMb: number | null;
  stdout: string;
  stderr: string;
}

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** pass the child's stderr through (progress on a terminal) */
  inheritStderr?: boolean;
}

/** A TypeScript file run by this Node (it strips the types itself): no npx process in between. */
export function scriptCommand(script: string, args: string[] = []): [string, string[]] {
  return [process.execPath, [script, ...args]];
}

export function runMeasured(command: string, args: string[], options: ChildOptions = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', options.inheritStderr ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const sampler = new TreeMemorySampler(child.pid!);
    const timer = setInterval(() => sampler.sample(), 100);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      resolve({
        exitCode: code,
        signal,
        seconds: (performance.now() - started) / 1000,
        peakRssMb: sampler.peakMb(),
        stdout,
        stderr,
      });
    });
  });
}

export class TreeMemorySampler {
  private treePeakKb = 0;
  private readonly ownPeakKb = new Map<number, number>();
  private readable = true;

  private readonly rootPid: number;
  constructor(rootPid: number) {
    this.rootPid = rootPid;
  }

  sample(): void {
    if (!this.readable) return;
    const pids = processTree(this.rootPid);
    if (pids === null) {
      this.readable = false;
      return;
    }
    let sum = 0;
    for (const pid of pids) {
      const status = readStatus(pid);
      if (!status) continue;
      sum += status.rssKb;
      this.ownPeakKb.set(pid, Math.max(this.ownPeakKb.get(pid) ?? 0, status.hwmKb));
    }
    this.treePeakKb = Math.max(this.treePeakKb, sum);
  }

  peakMb(): number | null {
    if (!this.readable) return null;
    const ownPeak = Math.max(0, ...this.ownPeakKb.values());
    return Math.round(Math.max(this.treePeakKb, ownPeak) / 1024);
  }
}

function readStatus(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(text);
    const hwm = /VmHWM:\s+(\d+) kB/.exec(text);
    return { rssKb: rss ? Number(rss[1]) : 0, hwmKb: hwm ? Number(hwm[1]) : 0 };
  } catch {
    return null;
  }
}

/** The root and every descendant, from /proc/<pid>/stat parent links; null without /proc. */
function processTree(rootPid: number): number[] | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name may hold spaces and parentheses: the parent pid follows the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}
