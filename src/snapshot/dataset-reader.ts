/**
 * Reads a dataset directory (docs/interface.md, Dataset format) in one pass, checking every
 * record, and hands the valid ones to a sink (the snapshot writer, or nothing for
 * a plain validation). providers.ndjson and proofs.ndjson are streamed line by
 * line: memory grows with the number of ids (for the referential checks), never
 * with the file.
 *
 * Order: categories (a provider's categoryIds must exist), providers (a proof's
 * providerId must exist), proofs, reports (categorySlug must exist).
 * Missing proofs.ndjson / reports.json count as empty; the others are required.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {
  DATASET_FILES,
  ProofRecordSchema,
  ProviderRecordSchema,
  ReportRecordSchema,
  type CategoryRecord,
  type ProofRecord,
  type ProviderRecord,
  type ReportRecord,
} from '../schemas/dataset.ts';
import { DatasetInvalidError, type DatasetIssue, type IssueLog } from './validate-issues.ts';
import { validateCategories } from './validate-categories.ts';
import { checkRecord } from './validate-zod.ts';

export interface DatasetSink {
  categories(accepted: Array<{ record: CategoryRecord; index: number }>): void;
  /** Returns the provider's rowid. */
  provider(record: ProviderRecord): number;
  proof(record: ProofRecord, providerRowid: number): void;
  report(record: ReportRecord): void;
  /** Awaited every DRAIN_EVERY providers: lets a sink with work in flight catch up. */
  drain?(): Promise<void>;
}

export interface ReadOptions {
  issues: IssueLog;
  /** Report and skip invalid records (and records that depend on them) instead of failing. */
  skipInvalid: boolean;
  onProgress?: (phase: 'providers' | 'proofs', done: number) => void;
  /** Human notes such as "proofs.ndjson not found: no proofs". */
  notes?: string[];
}

export interface DatasetCounts {
  categories: number;
  providers: number;
  proofs: number;
  reports: number;
  /** Records read but left out (only with skipInvalid). */
  skipped: number;
}

const PROGRESS_EVERY = 10_000;
const DRAIN_EVERY = 1_000;

export async function readDataset(dir: string, sink: DatasetSink | null, options: ReadOptions): Promise<DatasetCounts> {
  const { issues, skipInvalid } = options;
  const fatal = (issue: Omit<DatasetIssue, 'place' | 'line'>): never => {
    issues.add({ ...issue, line: null, place: 'line' });
    throw new DatasetInvalidError(issues.kept, issues.count);
  };
  // Once a record is invalid the build will fail: keep checking, stop writing.
  const writer = () => (sink && (skipInvalid || issues.count === 0) ? sink : null);
  const counts: DatasetCounts = { categories: 0, providers: 0, proofs: 0, reports: 0, skipped: 0 };
  const fileIn = (name: string) => path.join(dir, name);

  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    fatal({ file: dir, field: '', message: 'dataset directory not found' });
  }

  // Categories (a small JSON array).
  const categoriesFile = DATASET_FILES.categories;
  const categoryRecords = readJsonArray(fileIn(categoriesFile), categoriesFile, true, fatal, options.notes);
  const { accepted: categories, rejectedIds: rejectedCategoryIds } = validateCategories(
    categoriesFile,
    categoryRecords,
    issues,
    skipInvalid,
  );
  // A record that depends on a bad one is reported when it is skipped for that
  // reason; when the build fails anyway, only the root problem is worth reading.
  const dependent = (issue: DatasetIssue) => {
    if (skipInvalid) issues.add(issue);
  };
  counts.skipped += categoryRecords.length - categories.length;
  writer()?.categories(categories);
  counts.categories = categories.length;
  const categoryIds = new Set(categories.map((c) => c.record.id));
  const categorySlugs = new Set(categories.map((c) => c.record.slug));

  // Providers, streamed. Ids map to rowids for the proofs; slugs to their line for messages.
  const providersFile = DATASET_FILES.providers;
  if (!fs.existsSync(fileIn(providersFile))) fatal({ file: providersFile, field: '', message: `not found in ${dir} (required)` });
  const rowidOfId = new Map<string, number>();
  const lineOfSlug = new Map<string, number>();
  const skippedProviderIds = new Set<string>();
  let nextRowid = 1;
  options.onProgress?.('providers', 0);
  for await (const { line, record } of ndjsonRecords(fileIn(providersFile), providersFile, issues)) {
    const where = { file: providersFile, line, place: 'line' as const };
    const skip = (raw: unknown) => {
      counts.skipped++;
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && !rowidOfId.has(id)) skippedProviderIds.add(id);
    };
    if (record === undefined) {
      counts.skipped++;
      continue;
    }
    const checked = checkRecord(ProviderRecordSchema, record);
    if (!checked.ok) {
      for (const issue of checked.issues) issues.add({ ...where, ...issue });
      skip(record);
      continue;
    }
    const p = checked.value;
    const problems: Array<[string, string]> = [];
    const dependencies: Array<[string, string]> = [];
    if (rowidOfId.has(p.id)) problems.push(['id', `duplicate id "${p.id}"`]);
    const slugLine = lineOfSlug.get(p.slug);
    if (slugLine !== undefined) problems.push(['slug', `duplicate slug "${p.slug}" (first on line ${slugLine})`]);
    p.categoryIds.forEach((id, i) => {
      if (categoryIds.has(id)) return;
      if (rejectedCategoryIds.has(id)) dependencies.push([`categoryIds[${i}]`, `category "${id}" is invalid`]);
      else problems.push([`categoryIds[${i}]`, `unknown category id "${id}"`]);
    });
    if (problems.length > 0 || dependencies.length > 0) {
      for (const [field, message] of problems) issues.add({ ...where, field, message });
      for (const [field, message] of dependencies) dependent({ ...where, field, message });
      if (!rowidOfId.has(p.id)) skippedProviderIds.add(p.id);
      counts.skipped++;
      continue;
    }
    const sinkNow = writer();
    const rowid = sinkNow ? sinkNow.provider(p) : nextRowid;
    if (sinkNow?.drain && counts.providers % DRAIN_EVERY === 0) await sinkNow.drain();
    nextRowid = rowid + 1;
    rowidOfId.set(p.id, rowid);
    lineOfSlug.set(p.slug, line);
    counts.providers++;
    if (counts.providers % PROGRESS_EVERY === 0) options.onProgress?.('providers', counts.providers);
  }
  options.onProgress?.('providers', counts.providers);
  lineOfSlug.clear();

  // Proofs, streamed; optional file.
  const proofsFile = DATASET_FILES.proofs;
  if (!fs.existsSync(fileIn(proofsFile))) {
    options.notes?.push(`${proofsFile} not found: building without proofs`);
  } else {
    options.onProgress?.('proofs', 0);
    const proofIds = new Set<string>();
    for await (const { line, record } of ndjsonRecords(fileIn(proofsFile), proofsFile, issues)) {
      const where = { file: proofsFile, line, place: 'line' as const };
      if (record === undefined) {
        counts.skipped++;
        continue;
      }
      const checked = checkRecord(ProofRecordSchema, record);
      const proof = checked.ok ? checked.value : null;
      if (!checked.ok) for (const issue of checked.issues) issues.add({ ...where, ...issue });
      else if (proofIds.has(proof!.id)) issues.add({ ...where, field: 'id', message: `duplicate id "${proof!.id}"` });
      else if (!rowidOfId.has(proof!.providerId) && skippedProviderIds.has(proof!.providerId)) {
        dependent({ ...where, field: 'providerId', message: `provider "${proof!.providerId}" is invalid` });
      } else if (!rowidOfId.has(proof!.providerId)) {
        issues.add({ ...where, field: 'providerId', message: `provider "${proof!.providerId}" is unknown` });
      } else {
        proofIds.add(proof!.id);
        writer()?.proof(proof!, rowidOfId.get(proof!.providerId)!);
        counts.proofs++;
        if (counts.proofs % PROGRESS_EVERY === 0) options.onProgress?.('proofs', counts.proofs);
        continue;
      }
      counts.skipped++;
    }
  }

  // Reports (a small JSON array); optional file.
  const reportsFile = DATASET_FILES.reports;
  const reportRecords = readJsonArray(fileIn(reportsFile), reportsFile, false, fatal, options.notes);
  const reportSlugs = new Map<string, number>();
  reportRecords.forEach((raw, index) => {
    const where = { file: reportsFile, line: index, place: 'index' as const };
    const checked = checkRecord(ReportRecordSchema, raw);
    let problem: [string, string] | null = null;
    if (!checked.ok) for (const issue of checked.issues) issues.add({ ...where, ...issue });
    else if (reportSlugs.has(checked.value.slug))
      problem = ['slug', `duplicate slug "${checked.value.slug}" (first at index ${reportSlugs.get(checked.value.slug)})`];
    else if (!categorySlugs.has(checked.value.categorySlug))
      problem = ['categorySlug', `unknown category slug "${checked.value.categorySlug}"`];
    if (problem) issues.add({ ...where, field: problem[0], message: problem[1] });
    if (!checked.ok || problem) {
      counts.skipped++;
      return;
    }
    reportSlugs.set(checked.value.slug, index);
    writer()?.report(checked.value);
    counts.reports++;
  });
  return counts;
}

function readJsonArray(
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
 * The records of an .ndjson file with their 1-based line numbers. Blank lines are
 * allowed and skipped; a line that is not JSON is reported and yields `record: undefined`.
 */
async function* ndjsonRecords(
  file: string,
  name: string,
  issues: IssueLog,
): AsyncGenerator<{ line: number; record: unknown }> {
  const input = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (trimmed === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(trimmed);
      } catch (err) {
        issues.add({ file: name, line, place: 'line', field: '', message: `invalid JSON: ${(err as Error).message}` });
        record = undefined;
      }
      yield { line, record };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
