/**
 * Checks a dataset directory without writing anything: the same pass, checks and
 * messages as `db:build` (dataset-reader.ts), for editors and tests.
 *
 *   const report = await validateDataset('data/seed');
 *   if (!report.ok) console.error(report.issues.map(formatIssue).join('\n'));
 */
import { readDataset, type DatasetCounts } from './dataset-reader.ts';
import { DatasetInvalidError, IssueLog, type DatasetIssue } from './validate-issues.ts';

export interface ValidationReport {
  ok: boolean;
  /** Records that passed (what a --skip-invalid build would keep). */
  counts: DatasetCounts;
  /** The first 1,000 problems. */
  issues: DatasetIssue[];
  issueCount: number;
  notes: string[];
}

export async function validateDataset(dir: string): Promise<ValidationReport> {
  const issues = new IssueLog();
  const notes: string[] = [];
  const empty: DatasetCounts = { categories: 0, providers: 0, proofs: 0, reports: 0, skipped: 0 };
  try {
    // skipInvalid: report dependents too, so the counts say what a lenient build keeps.
    const { counts } = await readDataset(dir, null, { issues, skipInvalid: true, notes });
    return { ok: issues.count === 0, counts, issues: issues.kept, issueCount: issues.count, notes };
  } catch (error) {
    if (!(error instanceof DatasetInvalidError)) throw error;
    return { ok: false, counts: empty, issues: issues.kept, issueCount: issues.count, notes };
  }
}
