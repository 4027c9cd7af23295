/**
 * The process-wide current Snapshot. Handlers call `currentSnapshot()` once per
 * request and use only that object, so a swap between requests never mixes two
 * snapshots within one response.
 *
 * Hot swap: at most every CHECK_INTERVAL_MS the holder stats DIRECTORY_DB; when the
 * file was replaced (new inode, size or mtime) it verifies and opens the new file
 * and swaps. A file that fails verification is refused and the old snapshot keeps
 * serving. The old connection is closed after a grace period, when no request can
 * still be using it.
 */
import fs from 'node:fs';
import { Snapshot } from './snapshot.ts';

const CHECK_INTERVAL_MS = 250;
const CLOSE_GRACE_MS = 30_000;

export type SnapshotVerifier = (file: string) => { ok: true } | { ok: false; reason: string };

interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const stampOf = (st: fs.Stats): FileStamp => ({ ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
const sameStamp = (a: FileStamp, b: FileStamp) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

export class SnapshotHolder {
  private snapshot: Snapshot | undefined;
  private stamp: FileStamp | undefined;
  private refused: FileStamp | undefined;
  private lastCheck = 0;
  private readonly listeners: ((s: Snapshot) => void)[] = [];

  constructor(
    readonly file: string,
    private readonly verify: SnapshotVerifier = () => ({ ok: true }),
    private readonly log: (msg: string) => void = (m) => console.warn(m),
  ) {}

  /** The snapshot to use for this request. Throws when no valid snapshot was ever opened. */
  current(now = Date.now()): Snapshot {
    if (!this.snapshot) {
      this.open(fs.statSync(this.file));
      this.lastCheck = now;
      return this.snapshot!;
    }
    if (now - this.lastCheck >= CHECK_INTERVAL_MS) {
      this.lastCheck = now;
      this.checkForNewFile();
    }
    return this.snapshot;
  }

  onSwap(listener: (s: Snapshot) => void): void {
    this.listeners.push(listener);
  }

  private checkForNewFile(): void {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.file);
    } catch {
      return; // mid-rename or removed: keep serving the open snapshot
    }
    const stamp = stampOf(st);
    if ((this.stamp && sameStamp(stamp, this.stamp)) || (this.refused && sameStamp(stamp, this.refused))) return;
    const verdict = this.verify(this.file);
    if (!verdict.ok) {
      this.refused = stamp;
      this.log(`snapshot ${this.file} refused: ${verdict.reason}; still serving ${this.snapshot?.id}`);
      return;
    }
    const old = this.snapshot;
    try {
      this.open(st);
    } catch (err) {
      this.refused = stamp;
      this.log(`snapshot ${this.file} refused: ${(err as Error).message}`);
      return;
    }
    if (old) setTimeout(() => old.close(), CLOSE_GRACE_MS).unref();
  }

  private open(st: fs.Stats): void {
    const next = new Snapshot(this.file);
    this.snapshot = next;
    this.stamp = stampOf(st);
    this.refused = undefined;
    for (const l of this.listeners) l(next);
  }

  close(): void {
    this.snapshot?.close();
    this.snapshot = undefined;
  }
}
