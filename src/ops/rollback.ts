/**
 * npm run rollback: makes the release before the live one live again (its
 * snapshot and its site, by the same two atomic renames as a rebuild) and drops
 * the live one from the history, so a second rollback goes one further back.
 */
import fs from 'node:fs';
import { activate, OpsError, readHistory, readReleaseInfo, releaseSnapshot, writeHistory, type ReleaseInfo, type ReleasePaths } from './releases.ts';
import { withLock } from './release-lock.ts';
import { snapshotVerifier } from './verify.ts';
import { publishAfterSwitch, type PublishOutcome } from './origin-publish.ts';

export interface RollbackResult {
  from: string;
  to: ReleaseInfo;
  /** with an origin folder (RELEASE_ORIGIN_DIR): the release published for the other nodes, or why not */
  published?: PublishOutcome;
}

/** Waits behind a running rebuild or rollback (`log` says so), then rolls back what is live by then. */
export function rollback(paths: ReleasePaths, originDir: string | undefined, log: (msg: string) => void): Promise<RollbackResult> {
  return withLock(paths.releasesDir, { task: 'rollback', log }, async () => {
    const history = readHistory(paths);
    if (history.length < 2) throw new OpsError('nothing to roll back to: there is no previous release');
    const from = history[history.length - 1]!;
    const toId = history[history.length - 2]!;
    const to = readReleaseInfo(paths, toId);
    const snapshot = releaseSnapshot(paths, toId);
    if (!to || !fs.existsSync(snapshot)) throw new OpsError(`previous release ${toId} is incomplete; not rolling back`);
    const verdict = snapshotVerifier(snapshot);
    if (!verdict.ok) throw new OpsError(`previous release ${toId} has a bad snapshot (${verdict.reason}); not rolling back`);
    activate(paths, toId);
    writeHistory(paths, history.slice(0, -1));
    return { from, to, published: originDir ? publishAfterSwitch(paths, toId, originDir) : undefined };
  });
}
