/**
 * The two shapes of a dataset file (docs/interface.md, Dataset format): a small
 * JSON array read whole, and .ndjson read line by line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LineReader } from './dataset-lines.ts';
import { bytesDigest } from './dataset-hash.ts';
import { lineHash, type LineTableBuilder } from './line-table.ts';
import type { DatasetIssue, IssueLog } from './validate-issues.ts';

/** The records of a JSON array file, and its digest (dataset-hash.ts; null: no such file). */
export function readJsonArray(
  file: string,
  name: string,
  required: boolean,
  fatal: (issue: Omit<DatasetIssue, 'place' | 'line'>) => never,
  notes: string[] | undefined,
): { records: unknown[]; digest: string | null } {
  if (!fs.existsSync(file)) {
    if (required) fatal({ file: name, field: '', message: `not found in ${path.dirname(file)} (required)` });
    notes?.push(`${name} not found: building without ${name.replace(/\.json$/, '')}`);
    return { records: [], digest: null };
  }
  const bytes = fs.readFileSync(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    fatal({ file: name, field: '', message: `invalid JSON: ${(err as Error).message}` });
  }
  if (!Array.isArray(parsed)) fatal({ file: name, field: '', message: 'must be a JSON array of records' });
  return { records: parsed as unknown[], digest: bytesDigest(bytes) };
}

/**
 * The records of an .ndjson file with their 1-based line numbers and line hashes
 * (line-table.ts), every line also written to `table` (its record 0: the caller sets it).
 * Blank lines are allowed and skipped; a line that is not JSON is reported and yields
 * `record: undefined`. Lines as dataset-lines.ts splits them (readline's lines).
 */
export function* ndjsonRecords(
  file: string,
  name: string,
  issues: IssueLog,
  table: LineTableBuilder,
): Generator<{ line: number; record: unknown; hash: Buffer }> {
  const reader = new LineReader(file);
  try {
    for (let l = reader.next(); l; l = reader.next()) {
      const hash = lineHash(l.bytes);
      table.line(hash, l.raw, 0);
      const trimmed = l.bytes.toString('utf8').trim();
      if (trimmed === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(trimmed);
      } catch (err) {
        issues.add({ file: name, line: reader.line, place: 'line', field: '', message: `invalid JSON: ${(err as Error).message}` });
        record = undefined;
      }
      yield { line: reader.line, record, hash };
    }
  } finally {
    reader.close();
  }
}
