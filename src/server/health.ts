/**
 * GET /healthz: the light service-info endpoint (spec: "basic service info and a
 * human health check"). It reads the meta of the snapshot the API is serving
 * (src/server/context.ts), so it stays
 * cheap enough for a load balancer to poll, and it answers 503 when no valid
 * snapshot can be opened (a node without data must leave the pool).
 */
import { currentSnapshot, type AppContext } from './context.ts';
import type { Snapshot } from '../query/snapshot.ts';
import { ApiError } from './errors.ts';
import type { ResponseCacheCounters } from './response-cache.ts';
import type { ReleaseStatus, ReleaseStatusBody } from './release-status.ts';

const SERVICE = 'provider-directory';
const startedAt = Date.now();

export interface HealthBody {
  status: 'ok';
  service: string;
  version: string;
  snapshot: {
    id: string;
    builtAt: string;
    schemaVersion: string;
    datasetHash: string;
    counts: Snapshot['meta']['counts'];
    /**
     * false for the first seconds of a large snapshot: it serves after a quick structure
     * check while the full integrity check runs on a worker thread
     */
    verified: boolean;
  };
  uptimeSeconds: number;
  pid: number;
  /** this node's answer cache since start (all zero when API_RESPONSE_CACHE_MB is 0) */
  responseCache: ResponseCacheCounters;
  /** only on a node following RELEASE_ORIGIN: its release, the origin's, and since when it is behind */
  release?: ReleaseStatusBody;
}

const NO_CACHE: ResponseCacheCounters = { hits: 0, misses: 0, entries: 0, bytes: 0 };

export function healthBody(
  snapshot: Snapshot,
  version: string,
  verified: boolean,
  now = Date.now(),
  responseCache: ResponseCacheCounters = NO_CACHE,
  release?: ReleaseStatus,
): HealthBody {
  const m = snapshot.meta;
  return {
    status: 'ok',
    service: SERVICE,
    version,
    snapshot: { id: m.snapshotId, builtAt: m.builtAt, schemaVersion: m.schemaVersion, datasetHash: m.datasetHash, counts: m.counts, verified },
    uptimeSeconds: Math.floor((now - startedAt) / 1000),
    pid: process.pid,
    responseCache,
    ...(release ? { release: release.body() } : {}),
  };
}

const NO_STORE = { 'cache-control': 'no-store', 'access-control-allow-origin': '*' };

export function handleHealth(
  request: Request,
  app: AppContext,
  cacheCounters: () => ResponseCacheCounters = () => NO_CACHE,
): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const err = new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on /healthz`);
    return Response.json(err.toBody(), { status: err.status, headers: { ...NO_STORE, allow: 'GET, HEAD' } });
  }
  let snapshot: Snapshot;
  try {
    snapshot = currentSnapshot(app);
  } catch {
    const err = new ApiError('SERVICE_UNAVAILABLE', 'no valid snapshot is loaded');
    return Response.json(err.toBody(), { status: err.status, headers: NO_STORE });
  }
  return Response.json(healthBody(snapshot, app.version, app.snapshots.verified(), Date.now(), cacheCounters(), app.release), {
    headers: { ...NO_STORE, 'x-snapshot-id': snapshot.id },
  });
}
