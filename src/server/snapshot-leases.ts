/**
 * Which snapshots requests are still using (SnapshotHolder's close logic).
 *
 * The node server takes a lease per request: it pins the snapshot the request
 * started with (the holder's current() inside `run` returns it, across every
 * await, even after a swap) and counts it as in use. A swapped-out snapshot is
 * closed when its last lease is released, at once when it has none: a search
 * waiting 30 s on an external embedder never meets a closed database, and no
 * timer guesses how long requests take.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Snapshot } from '../query/snapshot.ts';

/** One request's hold on a snapshot. */
export interface SnapshotLease {
  readonly snapshot: Snapshot;
  /** Runs fn with this snapshot as the holder's current() (and across everything fn awaits). */
  run<T>(fn: () => T): T;
  /** Ends the hold; idempotent. A retired snapshot closes with its last lease. */
  release(): void;
}

export class SnapshotLeases {
  /** the snapshot of the request being run */
  private readonly pinned = new AsyncLocalStorage<Snapshot>();
  /** leases held per snapshot */
  private readonly users = new Map<Snapshot, number>();
  /** swapped out, still leased: closed by the last release */
  private readonly retired = new Set<Snapshot>();

  /** The snapshot pinned by the lease being run, if any. */
  pinnedSnapshot(): Snapshot | undefined {
    return this.pinned.getStore();
  }

  take(snapshot: Snapshot): SnapshotLease {
    this.users.set(snapshot, (this.users.get(snapshot) ?? 0) + 1);
    let released = false;
    return {
      snapshot,
      run: (fn) => this.pinned.run(snapshot, fn),
      release: () => {
        if (released) return;
        released = true;
        this.unuse(snapshot);
      },
    };
  }

  /** A swapped-out snapshot: closed now when no lease holds it, else by the last release. */
  retire(old: Snapshot): void {
    if (this.users.has(old)) this.retired.add(old);
    else old.close();
  }

  /** Swapped-out snapshots still held by a request. */
  retiredCount(): number {
    return this.retired.size;
  }

  /** Shutdown: closes every retired snapshot, leased or not. */
  closeRetired(): void {
    for (const old of this.retired) old.close();
    this.retired.clear();
  }

  private unuse(snapshot: Snapshot): void {
    const left = (this.users.get(snapshot) ?? 1) - 1;
    if (left > 0) return void this.users.set(snapshot, left);
    this.users.delete(snapshot);
    if (this.retired.delete(snapshot)) snapshot.close();
  }
}
