/**
 * The app context: what a request or a page needs that is made once per process,
 * built by the entry point and passed down: the parsed settings, the logger, the
 * snapshot holder, the search gate, the key services (opened on first use) and
 * values computed once from the settings (`memo`: the OpenAPI document, the site
 * settings, the build's snapshot). Nothing below the entry points reads
 * process.env or keeps a module-level cache; per-snapshot values live on the
 * Snapshot (`snapshot.memo`), per-process ones here.
 *
 * Entry points: scripts/serve.ts (the server), the Astro integration
 * (src/site/astro-integration.ts: `astro dev` and `astro build`), tests.
 * Handlers get the context as an argument. Astro renders pages itself and
 * cannot hand them an argument, so the entry point also installs the context in
 * one process-wide slot that page code reads with `appContext()`; it lives on
 * globalThis because the Astro server bundle carries its own copy of this module.
 */
import type { Logger } from 'pino';
import type { Env } from '../env.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { createKeyServices, type KeyServices } from './auth/services.ts';
import { ApiError } from './errors.ts';
import { swapLogger } from './logging.ts';
import { systemClock, type Clock } from './rate-limit/store.ts';
import { searchProviders } from '../search/search.ts';
import { SearchGate } from './search-gate.ts';
import { SearchThreads, type Searcher } from './search-threads.ts';
import type { ReleaseStatus } from './release-status.ts';
import { SnapshotHolder } from './snapshot-holder.ts';

export interface AppContext {
  readonly env: Env;
  /** package.json's version, read once by the entry point (GET /healthz reports it) */
  readonly version: string;
  readonly logger: Logger;
  readonly snapshots: SnapshotHolder;
  /**
   * searchProviders within the cap on searches running at once (SEARCH_MAX_IN_FLIGHT:
   * one more is refused with 503), on the search threads too when SEARCH_THREADS > 0
   * (src/server/search-threads.ts)
   */
  readonly search: Searcher;
  /** the clock of every rate-limit window: pinned by RATE_LIMIT_CLOCK_MS (tests), else the system's */
  readonly rateLimitClock: Clock;
  /** with RELEASE_ORIGIN: what the node knows of its release and the origin's (GET /healthz `release`) */
  readonly release: ReleaseStatus | undefined;
  /** KEYS_DB and the keys' rate limiter: opened on the first keyed request, so a node that never sees one never opens them */
  keyServices(): KeyServices;
  /** a value computed once per process from the settings */
  memo<T>(key: string, compute: () => T): T;
  close(): Promise<void>;
}

export interface AppContextParts {
  version: string;
  logger: Logger;
  /** The holder to serve from; by default one of DIRECTORY_DB that logs swaps to `logger`. */
  snapshots?: SnapshotHolder;
  /** Key services made by the caller (tests pin their clock); by default made from KEYS_DB and REDIS_URL on first use. */
  keyServices?: KeyServices;
  /** The release status a node following RELEASE_ORIGIN keeps (scripts/serve.ts makes it with the follower). */
  release?: ReleaseStatus;
}

export function createAppContext(env: Env, parts: AppContextParts): AppContext {
  const { logger, version } = parts;
  const snapshots =
    parts.snapshots ?? new SnapshotHolder(env.directoryDb, { log: swapLogger(logger), embedder: env.embedder, searchingThreads: env.searchThreads + 1 });
  const searchGate = new SearchGate(env.searchMaxInFlight);
  const threads = env.searchThreads > 0 ? new SearchThreads(env.searchThreads, env.embedder, searchGate, logger) : undefined;
  const pinned = env.rateLimitClockMs;
  const rateLimitClock: Clock = pinned !== undefined ? () => pinned : systemClock;
  let keys = parts.keyServices;
  const memos = new Map<string, unknown>();
  return {
    env,
    version,
    logger,
    snapshots,
    search: threads ? threads.search : (snapshot, request) => searchGate.run(() => searchProviders(snapshot, request)),
    rateLimitClock,
    release: parts.release,
    keyServices() {
      keys ??= createKeyServices({ keysDb: env.keysDb, redisUrl: env.redisUrl, clock: rateLimitClock });
      return keys;
    },
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
    async close() {
      await threads?.stop();
      snapshots.close();
      await keys?.close();
    },
  };
}

/** The snapshot for this request; 503 SERVICE_UNAVAILABLE when none can be opened. */
export function currentSnapshot(app: AppContext): Snapshot {
  try {
    return app.snapshots.current();
  } catch (err) {
    app.logger.error({ reason: (err as Error).message }, 'snapshot unavailable');
    throw new ApiError('SERVICE_UNAVAILABLE', 'The directory snapshot is not available.');
  }
}

const GLOBAL_KEY = Symbol.for('provider-directory.app-context');
type GlobalWithContext = typeof globalThis & { [GLOBAL_KEY]?: AppContext };

/** Makes `app` the context page code reads (entry points only); a context it replaces has its snapshot closed. */
export function installAppContext(app: AppContext): AppContext {
  const g = globalThis as GlobalWithContext;
  const previous = g[GLOBAL_KEY];
  if (previous && previous !== app) void previous.close();
  g[GLOBAL_KEY] = app;
  return app;
}

/** The context the entry point installed, for page code (Astro gives pages no arguments). */
export function appContext(): AppContext {
  const app = (globalThis as GlobalWithContext)[GLOBAL_KEY];
  if (!app) throw new Error('no app context: the entry point (scripts/serve.ts, or the Astro integration for astro dev/build) installs one');
  return app;
}
