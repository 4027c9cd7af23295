/**
 * Validation problems as values. Each one names the file, the place in it (a
 * 1-based line in an .ndjson file, the 0-based array index in a .json file), the
 * field and what is wrong, so an editor can go straight to it:
 *
 *   providers.ndjson:17: field "trustLevel": must be an integer between 0 and 5 (got 7)
 *   categories.json[3]: field "parentId": unknown parent category "cat-x"
 *
 * A dataset with a million bad lines must not hold a million messages: the log
 * keeps the first `keep` and counts the rest.
 */

export interface DatasetIssue {
  file: string;
  /** 1-based line (.ndjson) or 0-based record index (.json); null for a whole-file problem. */
  line: number | null;
  /** "line" for .ndjson files, "index" for .json arrays. */
  place: 'line' | 'index';
  /** Dotted field path such as "employeeCount.value" or "categoryIds[1]"; "" for the whole record. */
  field: string;
  message: string;
}

export function formatIssue(issue: DatasetIssue): string {
  const where =
    issue.line === null ? issue.file : issue.place === 'line' ? `${issue.file}:${issue.line}` : `${issue.file}[${issue.line}]`;
  const field = issue.field === '' ? '' : ` field "${issue.field}":`;
  return `${where}:${field} ${issue.message}`;
}

/** "a.b[2].c" from a zod-style path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** A short, printable rendering of a bad value for "(got ...)". */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export class IssueLog {
  readonly kept: DatasetIssue[] = [];
  count = 0;

  private readonly keep: number;
  constructor(keep = 1000) {
    this.keep = keep;
  }

  add(issue: DatasetIssue): void {
    this.count++;
    if (this.kept.length < this.keep) this.kept.push(issue);
  }

  /** The first `limit` messages, then "... and N more". */
  summary(limit = 50): string[] {
    const lines = this.kept.slice(0, limit).map(formatIssue);
    if (this.count > lines.length) lines.push(`... and ${this.count - lines.length} more`);
    return lines;
  }
}

/** Raised by the builder when the dataset has invalid records (and --skip-invalid is off), or a file is unusable. */
export class DatasetInvalidError extends Error {
  readonly code = 'DATASET_INVALID';

  readonly issues: DatasetIssue[];
  readonly issueCount: number;
  constructor(issues: DatasetIssue[], issueCount: number, limit = 50) {
    const lines = issues.slice(0, limit).map(formatIssue);
    if (issueCount > lines.length) lines.push(`... and ${issueCount - lines.length} more`);
    super(`dataset is invalid: ${issueCount} problem${issueCount === 1 ? '' : 's'}\n${lines.join('\n')}`);
    this.issues = issues;
    this.issueCount = issueCount;
    this.name = 'DatasetInvalidError';
  }
}
