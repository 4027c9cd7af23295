/**
 * The two shapes of a dataset file (docs/interface.md, Dataset format): a small
 * JSON array read whole, and .ndjson streamed line by line.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { lineHash } from './dataset-records.ts';
import type { DatasetIssue, IssueLog } from './validate-issues.ts';

export function readJsonArray(
  file: string,
  name: string,
  required: boolean,
  fatal: (issue: Omit<DatasetIssue, 'place' | 'line'>) => never,
  notes: string[] | undefined,
): unknown[] {
  if (!fs.existsSync(file)) {
    if (required) fatal({ file: name, field: '', message: `not found in ${path.dirname(file)} (required)` });
    notes?.push(`${name} not found: building without ${name.replace(/\.json$/, '')}`);
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    fatal({ file: name, field: '', message: `invalid JSON: ${(err as Error).message}` });
  }
  if (!Array.isArray(parsed)) fatal({ file: name, field: '', message: 'must be a JSON array of records' });
  return parsed as unknown[];
}

/**
 * The records of an .ndjson file with their 1-based line numbers and line hashes
 * (dataset-records.ts). Blank lines are allowed and skipped; a line that is not JSON
 * is reported and yields `record: undefined`. Lines break at \n, \r\n and \r (readline).
 */
export async function* ndjsonRecords(
  file: string,
  name: string,
  issues: IssueLog,
): AsyncGenerator<{ line: number; record: unknown; hash: Buffer }> {
  const input = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      const untrimmed = line === 1 ? text.replace(/^\uFEFF/, '') : text;
      const trimmed = untrimmed.trim();
      if (trimmed === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(trimmed);
      } catch (err) {
        issues.add({ file: name, line, place: 'line', field: '', message: `invalid JSON: ${(err as Error).message}` });
        record = undefined;
      }
      yield { line, record, hash: lineHash(untrimmed) };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
