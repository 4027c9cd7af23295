/**
 * dataset_records (schema.sql): a hash of the raw line of each validated provider and
 * proof record, written by every build, so the next build finds what changed by hashing
 * the lines' bytes (no JSON parse) and validates only the lines it has not seen valid
 * (incremental-scan.ts). Validating a record depends only on its bytes and the taxonomy,
 * and a taxonomy change forces a full build. A line respaced is a changed line: it is
 * validated and rewritten, nothing worse. The line is hashed as the reader sees it: the
 * bytes between line breaks, a byte-order mark on line 1 left out.
 * The categories and reports files are small: one hash each (of the records), in snapshot_meta.
 */
import crypto from 'node:crypto';

export type RecordKind = 'provider' | 'proof';

export const recordHash = (record: unknown): string => crypto.hash('sha256', JSON.stringify(record), 'base64');

/** md5 of a line (a string is hashed as its UTF-8 bytes): 16 bytes, the first 8 of which the scan compares. */
export const lineHash = (line: string | Buffer): Buffer => crypto.hash('md5', line, 'buffer');

export const INSERT_RECORD_SQL = 'INSERT OR REPLACE INTO dataset_records (kind, key, provider_rowid, hash) VALUES (?, ?, ?, ?)';
