/**
 * Reading a built snapshot file from outside the builder:
 *   readSnapshotMeta(file)   -> what snapshot_meta says (throws on a missing or incomplete file)
 *   verifySnapshotFile(file) -> {ok} | {ok: false, reason}: the server's check before it
 *                               swaps to a new file (refuses a corrupt, truncated or
 *                               foreign-version snapshot)
 * Neither needs the sqlite-vec extension: they read sqlite_master and plain tables.
 */
import Database from 'better-sqlite3';
import { REQUIRED_TABLES, REQUIRED_VIEWS, SCHEMA_VERSION } from './schema-version.ts';

export { SCHEMA_VERSION };

export interface SnapshotFileMeta {
  schemaVersion: string;
  snapshotId: string;
  builtAt: string;
  datasetSource: string;
  datasetHash: string;
  embedderName: string;
  embedderDims: number;
  counts: { providers: number; published: number; categories: number; proofs: number; reports: number };
}

const REQUIRED_META = [
  'schema_version',
  'snapshot_id',
  'built_at',
  'dataset_source',
  'dataset_hash',
  'embedder_name',
  'embedder_dims',
  'count_providers',
  'count_published',
  'count_categories',
  'count_proofs',
  'count_reports',
] as const;

/** snapshot_meta of an open snapshot; throws when a required key is missing. */
export function metaOf(db: Database.Database): SnapshotFileMeta {
  const rows = db.prepare('SELECT key, value FROM snapshot_meta').all() as Array<{ key: string; value: string }>;
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const missing = REQUIRED_META.filter((k) => !m.has(k));
  if (missing.length > 0) throw new Error(`snapshot_meta lacks ${missing.join(', ')}: not a complete snapshot`);
  const get = (k: (typeof REQUIRED_META)[number]) => m.get(k)!;
  return {
    schemaVersion: get('schema_version'),
    snapshotId: get('snapshot_id'),
    builtAt: get('built_at'),
    datasetSource: get('dataset_source'),
    datasetHash: get('dataset_hash'),
    embedderName: get('embedder_name'),
    embedderDims: Number(get('embedder_dims')),
    counts: {
      providers: Number(get('count_providers')),
      published: Number(get('count_published')),
      categories: Number(get('count_categories')),
      proofs: Number(get('count_proofs')),
      reports: Number(get('count_reports')),
    },
  };
}

function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

export function readSnapshotMeta(file: string): SnapshotFileMeta {
  const db = openReadOnly(file);
  try {
    return metaOf(db);
  } finally {
    db.close();
  }
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** verifySnapshotFile: PRAGMA quick_check (about 12 s at 1,000,000 providers), then checkSnapshotStructure. */
export function verifySnapshotFile(file: string): VerifyResult {
  return checkSnapshot(file, true);
}

/** The required tables, views and meta rows and the schema version, without quick_check (milliseconds). */
export function checkSnapshotStructure(file: string): VerifyResult {
  return checkSnapshot(file, false);
}

function checkSnapshot(file: string, integrity: boolean): VerifyResult {
  let db: Database.Database | undefined;
  try {
    db = openReadOnly(file);
    const check = integrity ? (db.pragma('quick_check') as Array<{ quick_check: string }>) : [{ quick_check: 'ok' }];
    if (check.length !== 1 || check[0]!.quick_check !== 'ok') {
      return { ok: false, reason: `integrity check failed: ${check.slice(0, 3).map((r) => r.quick_check).join('; ')}` };
    }
    const present = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as Array<{ name: string }>).map(
        (r) => r.name,
      ),
    );
    const absent = [...REQUIRED_TABLES, ...REQUIRED_VIEWS].filter((name) => !present.has(name));
    if (absent.length > 0) return { ok: false, reason: `not a complete snapshot: missing ${absent.join(', ')}` };
    const meta = metaOf(db);
    if (meta.schemaVersion !== SCHEMA_VERSION) {
      return {
        ok: false,
        reason: `snapshot schema version ${meta.schemaVersion}, this program reads version ${SCHEMA_VERSION}: rebuild it with npm run db:build`,
      };
    }
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: `cannot read snapshot ${file}: ${(err as Error).message}` };
  } finally {
    db?.close();
  }
}
