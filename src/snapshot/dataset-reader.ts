/**
 * Reads a dataset directory (docs/interface.md, Dataset format) in one pass, checking every
 * record, and hands the valid ones to a sink (the snapshot writer, or nothing for
 * a plain validation), with the line tables of the .ndjson files (line-table.ts).
 * providers.ndjson and proofs.ndjson are read line by line: memory grows with the
 * number of ids (for the referential checks) and lines (16 bytes each), never with
 * the bytes of the file.
 *
 * Order: categories (a provider's categoryIds must exist), providers (a proof's
 * providerId must exist), proofs, reports (categorySlug must exist).
 * Missing proofs.ndjson / reports.json count as empty; the others are required.
 */
import fs from 'node:fs';
import path from 'node:path';
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
import { ndjsonRecords, readJsonArray } from './dataset-files.ts';
import { LineTableBuilder, type LineTable } from './line-table.ts';
import { datasetHashOf, tableDigest } from './dataset-hash.ts';

export interface DatasetSink {
  categories(accepted: Array<{ record: CategoryRecord; index: number }>): void;
  /** Returns the provider's rowid. */
  provider(record: ProviderRecord): number;
  /** `lineHash`: of its line in the file (line-table.ts). */
  proof(record: ProofRecord, providerRowid: number, lineHash: Buffer): void;
  /** The line table of an .ndjson file read (line-table.ts), once it is read. */
  lines(file: string, table: LineTable): void;
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

export interface DatasetRead {
  counts: DatasetCounts;
  /** snapshot_meta.dataset_hash (dataset-hash.ts), from the files as read */
  datasetHash: string;
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

/** What the steps of one read share. */
export interface ReadContext<S extends SmallFilesSink = DatasetSink> {
  dir: string;
  options: ReadOptions;
  counts: DatasetCounts;
  /** each file's digest as read (dataset-hash.ts; null: not there) */
  digests: Map<string, string | null>;
  /** The sink while records may still be written: once a record is invalid the build will fail, so checking goes on and writing stops. */
  writer(): S | null;
  /** Records the issue and stops the read (a missing or unreadable file). */
  fatal(issue: Omit<DatasetIssue, 'place' | 'line'>): never;
  /**
   * A record that depends on a bad one is reported when it is skipped for that
   * reason; when the build fails anyway, only the root problem is worth reading.
   */
  dependent(issue: DatasetIssue): void;
  fileIn(name: string): string;
}

export interface CategoriesRead {
  ids: Set<string>;
  slugs: Set<string>;
  rejectedIds: Set<string>;
}

interface ProvidersRead {
  /** provider id -> rowid, for the proofs */
  rowidOfId: Map<string, number>;
  /** ids of providers left out, so their proofs are reported as dependent */
  skippedIds: Set<string>;
}

export async function readDataset(dir: string, sink: DatasetSink | null, options: ReadOptions): Promise<DatasetRead> {
  const context = readContext(dir, sink, options);
  const categories = readCategories(context);
  const providers = await readProviders(context, categories);
  await readProofs(context, providers);
  readReports(context, categories.slugs);
  return { counts: context.counts, datasetHash: datasetHashOf(context.digests) };
}

/** What the small files are written to: all the incremental scan (incremental-scan.ts) reads with this reader. */
export type SmallFilesSink = Pick<DatasetSink, 'categories' | 'report'>;

/** The shared state of one read. */
export function readContext<S extends SmallFilesSink>(dir: string, sink: S | null, options: ReadOptions): ReadContext<S> {
  const { issues, skipInvalid } = options;
  const context: ReadContext<S> = {
    dir,
    options,
    counts: { categories: 0, providers: 0, proofs: 0, reports: 0, skipped: 0 },
    digests: new Map(),
    writer: () => (sink && (skipInvalid || issues.count === 0) ? sink : null),
    fatal: (issue) => {
      issues.add({ ...issue, line: null, place: 'line' });
      throw new DatasetInvalidError(issues.kept, issues.count);
    },
    dependent: (issue) => {
      if (skipInvalid) issues.add(issue);
    },
    fileIn: (name) => path.join(dir, name),
  };
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    context.fatal({ file: dir, field: '', message: 'dataset directory not found' });
  }
  return context;
}

/** Categories (a small JSON array). */
export function readCategories(context: ReadContext<SmallFilesSink>): CategoriesRead {
  const { issues, skipInvalid, notes } = context.options;
  const categoriesFile = DATASET_FILES.categories;
  const { records: categoryRecords, digest } = readJsonArray(context.fileIn(categoriesFile), categoriesFile, true, context.fatal, notes);
  context.digests.set(categoriesFile, digest);
  const { accepted: categories, rejectedIds } = validateCategories(categoriesFile, categoryRecords, issues, skipInvalid);
  context.counts.skipped += categoryRecords.length - categories.length;
  context.writer()?.categories(categories);
  context.counts.categories = categories.length;
  return { ids: new Set(categories.map((c) => c.record.id)), slugs: new Set(categories.map((c) => c.record.slug)), rejectedIds };
}

/** Providers, streamed. Ids map to rowids for the proofs; slugs to their line for messages. */
async function readProviders(context: ReadContext, categories: CategoriesRead): Promise<ProvidersRead> {
  const { issues, onProgress } = context.options;
  const { counts } = context;
  const providersFile = DATASET_FILES.providers;
  if (!fs.existsSync(context.fileIn(providersFile))) {
    context.fatal({ file: providersFile, field: '', message: `not found in ${context.dir} (required)` });
  }
  const rowidOfId = new Map<string, number>();
  const lineOfSlug = new Map<string, number>();
  const skippedProviderIds = new Set<string>();
  let nextRowid = 1;
  onProgress?.('providers', 0);
  const table = new LineTableBuilder();
  for (const { line, record } of ndjsonRecords(context.fileIn(providersFile), providersFile, issues, table)) {
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
      if (categories.ids.has(id)) return;
      if (categories.rejectedIds.has(id)) dependencies.push([`categoryIds[${i}]`, `category "${id}" is invalid`]);
      else problems.push([`categoryIds[${i}]`, `unknown category id "${id}"`]);
    });
    if (problems.length > 0 || dependencies.length > 0) {
      for (const [field, message] of problems) issues.add({ ...where, field, message });
      for (const [field, message] of dependencies) context.dependent({ ...where, field, message });
      if (!rowidOfId.has(p.id)) skippedProviderIds.add(p.id);
      counts.skipped++;
      continue;
    }
    const sinkNow = context.writer();
    const rowid = sinkNow ? sinkNow.provider(p) : nextRowid;
    table.setRecord(line - 1, rowid);
    if (sinkNow?.drain && counts.providers % DRAIN_EVERY === 0) await sinkNow.drain();
    nextRowid = rowid + 1;
    rowidOfId.set(p.id, rowid);
    lineOfSlug.set(p.slug, line);
    counts.providers++;
    if (counts.providers % PROGRESS_EVERY === 0) onProgress?.('providers', counts.providers);
  }
  onProgress?.('providers', counts.providers);
  finishLines(context, providersFile, table);
  return { rowidOfId, skippedIds: skippedProviderIds };
}

/** Proofs, streamed; optional file. */
async function readProofs(context: ReadContext, providers: ProvidersRead): Promise<void> {
  const { issues, onProgress, notes } = context.options;
  const { counts } = context;
  const { rowidOfId, skippedIds: skippedProviderIds } = providers;
  const proofsFile = DATASET_FILES.proofs;
  if (!fs.existsSync(context.fileIn(proofsFile))) {
    notes?.push(`${proofsFile} not found: building without proofs`);
    context.digests.set(proofsFile, null);
    return;
  }
  onProgress?.('proofs', 0);
  const proofIds = new Set<string>();
  const table = new LineTableBuilder();
  for (const { line, record, hash } of ndjsonRecords(context.fileIn(proofsFile), proofsFile, issues, table)) {
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
      context.dependent({ ...where, field: 'providerId', message: `provider "${proof!.providerId}" is invalid` });
    } else if (!rowidOfId.has(proof!.providerId)) {
      issues.add({ ...where, field: 'providerId', message: `provider "${proof!.providerId}" is unknown` });
    } else {
      proofIds.add(proof!.id);
      const providerRowid = rowidOfId.get(proof!.providerId)!;
      context.writer()?.proof(proof!, providerRowid, hash);
      table.setRecord(line - 1, providerRowid);
      counts.proofs++;
      if (counts.proofs % PROGRESS_EVERY === 0) onProgress?.('proofs', counts.proofs);
      continue;
    }
    counts.skipped++;
  }
  finishLines(context, proofsFile, table);
}

/** A file's line table read whole: its digest kept, the table given to the sink. */
function finishLines(context: ReadContext, file: string, table: LineTableBuilder): void {
  const done = table.finish();
  context.digests.set(file, tableDigest(done));
  context.writer()?.lines(file, done);
}

/** Reports (a small JSON array); optional file. */
export function readReports(context: ReadContext<SmallFilesSink>, categorySlugs: Set<string>): void {
  const { issues, notes } = context.options;
  const { counts } = context;
  const reportsFile = DATASET_FILES.reports;
  const { records: reportRecords, digest } = readJsonArray(context.fileIn(reportsFile), reportsFile, false, context.fatal, notes);
  context.digests.set(reportsFile, digest);
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
    context.writer()?.report(checked.value);
    counts.reports++;
  });
}
