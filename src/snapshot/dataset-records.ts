/**
 * The hashes of the small dataset files' records (categories.json, reports.json), in
 * snapshot_meta (categories_hash, reports_hash): a taxonomy that changed ends an
 * incremental scan (incremental-scan.ts). The .ndjson files' lines are hashed in their
 * line tables (line-table.ts).
 */
import crypto from 'node:crypto';

export const recordHash = (record: unknown): string => crypto.hash('sha256', JSON.stringify(record), 'base64');
