/**
 * One rebuild, rollback, origin publish or node install at a time per RELEASES_DIR, and the
 * others wait their turn instead of being refused (issue 43: editors publish without
 * waiting for each other). Across processes, with files only:
 *
 *   <releasesDir>/.lock            the holder: {pid, task, since}; made by link(2), so it
 *                                  appears whole or not at all
 *   <releasesDir>/.queue/<ticket>  one per waiter, named <ms since epoch>-<pid>-<n>: the
 *                                  oldest living ticket is next
 *
 * A waiter polls (every POLL_MS) and tells, once per holder, whom it waits behind.
 * Each waiter runs its own task in arrival order: nothing is folded, so every
 * rebuild's release is in the history (a rollback point) and every editor's command
 * reports its own release, or its own error. A holder or waiter that died (a crash,
 * kill -9) is passed over: its lock is taken over by the next in line, its ticket
 * removed by whoever sees it.
 */
import fs from 'node:fs';
import path from 'node:path';

const POLL_MS = 200;
let tickets = 0; // this process's, so two waits of one process never share a name

interface Holder {
  pid: number;
  task: string;
  /** ISO time the holder took the lock */
  since: string;
}

export interface LockOptions {
  /** What the caller does, for the waiters' message ("rebuild --input data/x"). */
  task: string;
  /** Where "queued behind ..." goes (stderr for the CLIs). */
  log: (msg: string) => void;
}

/** Runs `run` holding the lock of `releasesDir`, after the ones queued before it. */
export async function withLock<T>(releasesDir: string, o: LockOptions, run: () => Promise<T>): Promise<T> {
  await acquire(releasesDir, o);
  try {
    return await run();
  } finally {
    fs.rmSync(lockFile(releasesDir), { force: true });
  }
}

const lockFile = (dir: string) => path.join(dir, '.lock');
const queueDir = (dir: string) => path.join(dir, '.queue');

async function acquire(releasesDir: string, o: LockOptions): Promise<void> {
  fs.mkdirSync(queueDir(releasesDir), { recursive: true });
  const ticket = path.join(queueDir(releasesDir), `${String(Date.now()).padStart(15, '0')}-${process.pid}-${tickets++}`);
  fs.writeFileSync(ticket, o.task);
  let toldAbout: string | undefined;
  try {
    for (;;) {
      const ahead = livingTicketsBefore(releasesDir, path.basename(ticket));
      const holder = readHolder(releasesDir);
      if (ahead === 0 && (!holder || !isAlive(holder.pid)) && take(releasesDir, o.task, holder)) return;
      const waitingFor = holder && isAlive(holder.pid) ? holder : undefined;
      const key = waitingFor ? `${waitingFor.pid} ${waitingFor.since}` : undefined;
      if (waitingFor && key !== toldAbout) {
        toldAbout = key;
        const others = ahead > 0 ? `, ${ahead} more ahead in the queue` : '';
        o.log(`queued behind pid ${waitingFor.pid} (started ${clock(waitingFor.since)}: ${waitingFor.task})${others}; this ${o.task.split(' ')[0]} starts when ${ahead > 0 ? 'they end' : 'it ends'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    fs.rmSync(ticket, { force: true });
  }
}

/** Creates the lock (or takes over a dead holder's); false when another process was quicker. */
function take(releasesDir: string, task: string, stale: Holder | undefined): boolean {
  const lock = lockFile(releasesDir);
  const tmp = `${lock}.${process.pid}.tmp`;
  const holder: Holder = { pid: process.pid, task, since: new Date().toISOString() };
  fs.writeFileSync(tmp, JSON.stringify(holder));
  try {
    if (stale) fs.rmSync(lock, { force: true }); // only the first in line does this
    fs.linkSync(tmp, lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readHolder(releasesDir: string): Holder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockFile(releasesDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as Holder;
  } catch {
    return { pid: 0, task: '?', since: '' }; // unreadable: no living holder to wait for
  }
}

/** How many living waiters queued before `mine`; dead waiters' tickets are removed. */
function livingTicketsBefore(releasesDir: string, mine: string): number {
  let n = 0;
  for (const name of fs.readdirSync(queueDir(releasesDir)).sort()) {
    if (name >= mine) break;
    const pid = Number(name.split('-')[1]);
    if (isAlive(pid)) n++;
    else fs.rmSync(path.join(queueDir(releasesDir), name), { force: true });
  }
  return n;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** HH:MM:SS local time of an ISO stamp. */
const clock = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '?' : d.toTimeString().slice(0, 8);
};
