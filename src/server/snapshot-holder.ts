/**
 * The process's current Snapshot (one holder, on the app context of
 * src/server/context.ts). Handlers call `currentSnapshot(app)` once per
 * request and use only that object, so a swap between requests never mixes two
 * snapshots within one response.
 *
 * Hot swap: at most every CHECK_INTERVAL_MS the holder stats DIRECTORY_DB (from a
 * timer, and from the request path as a fallback when timers are late); when the
 * file was replaced (new inode, size or mtime) it verifies the new file (integrity
 * and schema version), opens it and swaps. A file that fails verification is
 * refused, remembered by its stamp so it is not re-checked on every tick, and the
 * old snapshot keeps serving. The old one is closed when the last request using
 * it has finished (`lease()`, src/server/snapshot-leases.ts).
 *
 * A new snapshot is warmed (src/search/warm.ts) before it serves. The timer and the
 * request path prepare it in the background: verification on a worker thread when
 * a background verifier is given (scripts/serve.ts), the warm-up in steps with a
 * yield to pending requests between them, so the old snapshot keeps answering
 * while the new one gets ready (at 1,000,000 providers quick_check alone reads for
 * about 12 s). `check()` does the same synchronously (tests, scripts). The first
 * snapshot, with nothing else to answer meanwhile, serves after the warm-up's
 * serving steps and runs the rest between requests.
 */
import fs from 'node:fs';
import type { EmbedderConfig } from '../env.ts';
import { Snapshot } from '../query/snapshot.ts';
import { SnapshotLeases, type SnapshotLease } from './snapshot-leases.ts';
import { listSteps, servingSteps, stepsOnceServing, warmSteps, type WarmStep } from '../search/warm.ts';
import { checkSnapshotStructure, verifySnapshotFile, type VerifyResult } from '../snapshot/snapshot-file.ts';

const CHECK_INTERVAL_MS = 250;
/** Warm-up steps run back to back between requests for up to this long (runBetweenRequests). */
const STEP_SLICE_MS = 4;

export type SnapshotVerifier = (file: string) => VerifyResult;
/** The same check off the event loop (src/ops/verify.ts runs it on a worker thread). */
export type BackgroundVerifier = (file: string) => Promise<VerifyResult>;

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SwapEvent {
  kind: 'swapped' | 'refused';
  file: string;
  snapshotId?: string;
  previousId?: string;
  reason?: string;
}

export type { SnapshotLease } from './snapshot-leases.ts';

export interface SnapshotHolderOptions {
  /** Swaps and refusals (src/server/logging.ts swapLogger). */
  log: (event: SwapEvent) => void;
  /** The check of every new file; by default integrity and schema version. */
  verify?: SnapshotVerifier;
  verifyInBackground?: BackgroundVerifier;
  onFirstFileBad?: (reason: string) => void;
  /** The query embedder of the snapshots (EMBEDDER_*); the built-in one by default. */
  embedder?: EmbedderConfig;
  /** Threads that search each snapshot (SEARCH_THREADS + 1, src/server/search-threads.ts); 1 by default. */
  searchingThreads?: number;
}

interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

const stampOf = (st: fs.Stats): FileStamp => ({ ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
const sameStamp = (a: FileStamp | undefined, b: FileStamp) =>
  a !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined; // mid-rename or removed: keep serving the open snapshot
  }
}

export class SnapshotHolder {
  private snapshot: Snapshot | undefined;
  private stamp: FileStamp | undefined;
  private refused: FileStamp | undefined;
  private lastCheck = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: ((s: Snapshot) => void)[] = [];
  private readonly leases = new SnapshotLeases();
  private preparing = false;
  private closed = false;
  /** false while the first snapshot's full check still runs on the worker; later swaps are checked before they serve */
  private fullyVerified = false;
  /** a file checked in full by whoever renames it into place (vouch()), by its stamp */
  private vouched: FileStamp | undefined;

  readonly file: string;
  private readonly verify: SnapshotVerifier;
  private readonly log: (event: SwapEvent) => void;
  private readonly verifyInBackground: BackgroundVerifier | undefined;
  /**
   * Given (with verifyInBackground), the first snapshot serves after the quick
   * structure check, and its full verification (quick_check: about 12 s at
   * 1,000,000 providers) runs on the worker meanwhile; a failure calls this
   * (scripts/serve.ts exits 1).
   */
  private readonly onFirstFileBad: ((reason: string) => void) | undefined;

  /** The query embedder the settings name, given to every Snapshot this holder opens. */
  private readonly embedder: EmbedderConfig;
  private readonly searchingThreads: number;

  constructor(file: string, options: SnapshotHolderOptions) {
    this.file = file;
    this.verify = options.verify ?? verifySnapshotFile;
    this.log = options.log;
    this.verifyInBackground = options.verifyInBackground;
    this.onFirstFileBad = options.onFirstFileBad;
    this.embedder = options.embedder ?? { kind: 'builtin' };
    this.searchingThreads = options.searchingThreads ?? 1;
  }

  /** The snapshot to use for this request. Throws when no valid snapshot was ever opened. */
  current(now = Date.now()): Snapshot {
    const pinned = this.leases.pinnedSnapshot();
    if (pinned) return pinned;
    if (!this.snapshot) {
      this.openFirst();
      this.lastCheck = now;
      return this.snapshot!;
    }
    if (now - this.lastCheck >= CHECK_INTERVAL_MS) this.checkInBackground(now);
    return this.snapshot;
  }

  /** Holds the current snapshot for one request. Throws like current() when none can be opened. */
  lease(): SnapshotLease {
    return this.leases.take(this.current());
  }

  /** Whether the served snapshot's full integrity check has passed (GET /healthz `snapshot.verified`). */
  verified(): boolean {
    return this.fullyVerified;
  }

  /** Swapped-out snapshots still held by a request. */
  retiredCount(): number {
    return this.leases.retiredCount();
  }

  /** Starts the background check so a swap happens even while no request arrives. */
  watch(): this {
    if (!this.timer) {
      this.timer = setInterval(() => {
        if (this.snapshot) this.checkInBackground(Date.now());
      }, CHECK_INTERVAL_MS);
      this.timer.unref();
    }
    return this;
  }

  /**
   * `file` has passed the full check (a node's follower checks each snapshot before it
   * renames it over DIRECTORY_DB, src/ops/origin-follow.ts): when the file renamed into
   * place is that one (same inode, size and mtime: a hard link of it), it is not read
   * through again (quick_check: about 12 s at 1,000,000 providers).
   */
  vouch(file: string): void {
    const st = statOrUndefined(file);
    this.vouched = st && stampOf(st);
  }

  onSwap(listener: (s: Snapshot) => void): void {
    this.listeners.push(listener);
  }

  /** The stamp of the file when it was replaced since the last look (and not refused before). */
  private replacedStamp(): FileStamp | undefined {
    const st = statOrUndefined(this.file);
    if (!st) return undefined;
    const stamp = stampOf(st);
    return sameStamp(this.stamp, stamp) || sameStamp(this.refused, stamp) ? undefined : stamp;
  }

  /** Looks for a replaced file now; returns true when a new snapshot was swapped in. */
  check(now = Date.now()): boolean {
    this.lastCheck = now;
    const stamp = this.replacedStamp();
    if (!stamp) return false;
    const verdict = sameStamp(this.vouched, stamp) ? ({ ok: true } as const) : safeVerify(this.verify, this.file);
    if (!verdict.ok) return this.refuse(stamp, verdict.reason);
    const next = this.open(stamp);
    if (!next) return false;
    try {
      for (const step of warmSteps(next)) step.run();
    } catch (err) {
      next.close();
      return this.refuse(stamp, `search indexes unreadable: ${(err as Error).message}`);
    }
    return this.swapTo(next, stamp);
  }

  /** check() without holding up requests: at most one preparation at a time. */
  checkInBackground(now = Date.now()): void {
    this.lastCheck = now;
    if (this.preparing) return;
    const stamp = this.replacedStamp();
    if (!stamp) return;
    this.preparing = true;
    void this.prepare(stamp).finally(() => {
      this.preparing = false;
    });
  }

  private async prepare(stamp: FileStamp): Promise<boolean> {
    const verdict = await this.verdictInBackground(stamp);
    if (this.closed) return false;
    if (!verdict.ok) return this.refuse(stamp, verdict.reason);
    const next = this.open(stamp);
    if (!next) return false;
    try {
      await runBetweenRequests(warmSteps(next), () => this.closed);
    } catch (err) {
      next.close();
      return this.refuse(stamp, `search indexes unreadable: ${(err as Error).message}`);
    }
    if (this.closed) {
      next.close();
      return false;
    }
    return this.swapTo(next, stamp);
  }

  /** The full check of a replaced file, on the worker when there is one; a vouched file passes. */
  private async verdictInBackground(stamp: FileStamp): Promise<VerifyResult> {
    if (sameStamp(this.vouched, stamp)) return { ok: true };
    if (!this.verifyInBackground) return safeVerify(this.verify, this.file);
    return this.verifyInBackground(this.file).catch((err: Error) => ({ ok: false, reason: err.message }));
  }

  private open(stamp: FileStamp): Snapshot | undefined {
    try {
      return new Snapshot(this.file, this.embedder, this.searchingThreads);
    } catch (err) {
      this.refuse(stamp, (err as Error).message);
      return undefined;
    }
  }

  private swapTo(next: Snapshot, stamp: FileStamp): boolean {
    // The file may have been replaced again since the stat; the stamp must
    // describe the file we opened, or the next tick re-checks.
    const after = statOrUndefined(this.file);
    if (!after || !sameStamp(stampOf(after), stamp) || sameStamp(this.stamp, stamp)) {
      next.close(); // replaced again, or already swapped in by the other path
      return false;
    }
    const old = this.snapshot;
    this.install(next, stamp);
    this.fullyVerified = true; // both paths here ran the full check before opening
    this.log({ kind: 'swapped', file: this.file, snapshotId: next.id, previousId: old?.id });
    if (old) this.leases.retire(old);
    // The common terms' lists after the switch, when the old snapshot's can go: before it,
    // both snapshots' term lists (403 MB each at 1,000,000 providers) would be held at once.
    this.warmInBackground(next, listSteps(next));
    return true;
  }

  private refuse(stamp: FileStamp, reason: string): false {
    this.refused = stamp;
    this.log({ kind: 'refused', file: this.file, reason, snapshotId: this.snapshot?.id });
    return false;
  }

  private openFirst(): void {
    const st = fs.statSync(this.file);
    const vouched = sameStamp(this.vouched, stampOf(st));
    const verifyLater = this.verifyInBackground && this.onFirstFileBad && !vouched ? this.verifyInBackground : undefined;
    const verdict = vouched ? ({ ok: true } as const) : safeVerify(verifyLater ? checkSnapshotStructure : this.verify, this.file);
    if (!verdict.ok) throw new Error(`snapshot ${this.file} is not usable: ${verdict.reason}`);
    this.fullyVerified = !verifyLater;
    if (verifyLater) {
      void verifyLater(this.file).then(
        (full) => {
          if (full.ok) this.fullyVerified = true;
          else if (!this.closed) this.onFirstFileBad!(`snapshot ${this.file} is not usable: ${full.reason}`);
        },
        (err: Error) => !this.closed && this.onFirstFileBad!(`snapshot ${this.file} could not be verified: ${err.message}`),
      );
    }
    const first = new Snapshot(this.file, this.embedder, this.searchingThreads);
    for (const step of servingSteps(first)) step.run();
    this.install(first, stampOf(st));
    this.warmInBackground(first, stepsOnceServing(first));
  }

  /**
   * The rest of a serving snapshot's warm-up between requests, until it is replaced. A step
   * that fails stops it: the requests that need that structure compute it themselves and
   * report the fault.
   */
  private warmInBackground(snapshot: Snapshot, steps: Iterable<WarmStep>): void {
    void runBetweenRequests(steps, () => this.closed || this.snapshot !== snapshot).catch(() => undefined);
  }

  private install(next: Snapshot, stamp: FileStamp): void {
    this.snapshot = next;
    this.stamp = stamp;
    this.refused = undefined;
    for (const l of this.listeners) l(next);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.leases.closeRetired();
    this.snapshot?.close();
    this.snapshot = undefined;
  }
}

/**
 * Runs the steps in slices of about STEP_SLICE_MS, yielding to pending requests between
 * slices, until done or `stop()`. A step of a large snapshot (a synonym group's list,
 * a city's filter set: milliseconds to tens of them) fills a slice alone, as when each
 * step had a turn of the event loop to itself; the hundreds of small steps of a small
 * snapshot share turns instead of waiting one turn each (under 50 busy connections, a
 * swap at 200 providers waited seconds for its turns).
 */
async function runBetweenRequests(steps: Iterable<WarmStep>, stop: () => boolean): Promise<void> {
  let sliceEnds = 0;
  for (const step of steps) {
    if (performance.now() >= sliceEnds) {
      await yieldToRequests();
      if (stop()) return;
      sliceEnds = performance.now() + STEP_SLICE_MS;
    }
    step.run();
  }
}

function safeVerify(verify: SnapshotVerifier, file: string): ReturnType<SnapshotVerifier> {
  try {
    return verify(file);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
