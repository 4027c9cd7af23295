/**
 * The snapshot the site reads. At build time one read-only Snapshot serves every
 * pre-rendered page (its memos and prepared statements are shared across 200k
 * pages; it is kept on the app context). Server-rendered pages (/search, /compare)
 * take the holder's current snapshot once per request (the same holder the API
 * uses), so a replaced DIRECTORY_DB is picked up without a restart and no
 * response mixes two snapshots.
 */
import { Snapshot } from '../query/snapshot.ts';
import { appContext, currentSnapshot } from '../server/context.ts';

/** For getStaticPaths and pre-rendered pages and endpoints. */
export function staticSnapshot(): Snapshot {
  const app = appContext();
  return app.memo('static-snapshot', () => new Snapshot(app.env.directoryDb, app.env.embedder));
}

/** For server-rendered pages: the current snapshot, taken once per request. */
export const requestSnapshot = (): Snapshot => currentSnapshot(appContext());
