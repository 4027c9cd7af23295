/**
 * dataset_records (schema.sql): a hash of each validated provider and proof record,
 * written by every build, so the next build finds what changed by hashing the
 * dataset as it streams by and comparing, instead of building everything again
 * (build-incremental.ts). The hash is of the validated record (zod's output, its
 * keys in schema order), so whitespace or key order in the file changes nothing.
 * The categories and reports files are small: one hash each, in snapshot_meta.
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

export type RecordKind = 'provider' | 'proof';

export const recordHash = (record: unknown): string => crypto.hash('sha256', JSON.stringify(record), 'base64');

export const INSERT_RECORD_SQL = 'INSERT OR REPLACE INTO dataset_records (kind, key, provider_rowid, hash) VALUES (?, ?, ?, ?)';

/** The stored hash and rowid of a record of the snapshot, or undefined. */
export function recordLookup(db: Database.Database): (kind: RecordKind, key: string) => { rowid: number; hash: string } | undefined {
  const get = db.prepare<[string, string], { rowid: number; hash: string }>('SELECT provider_rowid AS rowid, hash FROM dataset_records WHERE kind = ? AND key = ?');
  return (kind, key) => get.get(kind, key);
}
