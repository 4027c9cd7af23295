/** What the figures ran on: recorded in latest.json beside them. */
import os from 'node:os';
import fs from 'node:fs';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  platform: string;
  kernel: string;
  node: string;
  sqlite?: string;
  loadAverage: number[];
  at: string;
}

export function machineInfo(sqliteVersion?: string): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    node: process.version,
    ...(sqliteVersion ? { sqlite: sqliteVersion } : {}),
    loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
    at: new Date().toISOString(),
  };
}

/** Resident memory of this process in MB, and its peak so far (VmHWM) when /proc has it. */
export function selfRssMb(): { rssMb: number; peakRssMb: number | null } {
  const rssMb = Math.round(process.memoryUsage.rss() / 1024 / 1024);
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return { rssMb, peakRssMb: m ? Math.round(Number(m[1]) / 1024) : null };
  } catch {
    return { rssMb, peakRssMb: null };
  }
}

/**
 * Reads a file through once (8 MB at a time) so that what follows starts from the
 * page cache a serving node keeps warm. A kernel with proactive reclaim (DAMON's
 * `pageout` of memory idle for about a minute, as on the EPYC machine of
 * bench/results) pages out a snapshot the earlier parts left idle, and the
 * long-tail part at 1M then measured reads from disk. Returns the seconds taken.
 */
export function readThrough(file: string): number {
  const started = performance.now();
  const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = fs.openSync(file, 'r');
  try {
    while (fs.readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    fs.closeSync(fd);
  }
  return (performance.now() - started) / 1000;
}
