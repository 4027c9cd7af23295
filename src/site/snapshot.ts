/**
 * The snapshot the site reads. At build time one read-only Snapshot serves every
 * pre-rendered page (its memos and prepared statements are shared across 200k
 * pages). Server-rendered pages (/search, /compare) take the process-wide holder's
 * current snapshot once per request (the same holder the API uses), so a replaced
 * DIRECTORY_DB is picked up without a restart and no response mixes two snapshots.
 */
import { Snapshot } from '../query/snapshot.ts';
import { currentSnapshot } from '../server/snapshot-holder.ts';
import { siteSettings } from './settings.ts';

let buildSnapshot: Snapshot | undefined;

/** For getStaticPaths and pre-rendered pages and endpoints. */
export function staticSnapshot(): Snapshot {
  buildSnapshot ??= new Snapshot(siteSettings().directoryDb);
  return buildSnapshot;
}

/** For server-rendered pages: the current snapshot, taken once per request. */
export const requestSnapshot = (): Snapshot => currentSnapshot();
