/**
 * The first step of an incremental build (build-incremental.ts): what changed between the
 * dataset and the base snapshot, with the dataset fully checked, at a cost of one read
 * of each file plus work in proportion to the change. providers.ndjson and
 * proofs.ndjson are read once each and matched with the line tables the base stores
 * (line-match.ts, line-table.ts): runs of unchanged lines by one hash over their bytes,
 * the others line by line. A line the base's build found valid is valid again (a
 * record's validity depends on its bytes and the taxonomy; a taxonomy change ends the
 * scan); only the other lines are parsed and validated, as the full reader does
 * (dataset-reader.ts), and the checks across records look the unchanged ones up in the
 * base's tables: ids and slugs taken, proofs' providers present. Errors name file, line
 * and field as a full build's do. Categories and reports are small and read with the
 * full reader. The dataset hash comes from the same reads (dataset-hash.ts).
 * A change larger than the limit ends the scan: the caller builds in full.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import {
  DATASET_FILES,
  ProofRecordSchema,
  ProviderRecordSchema,
  type CategoryRecord,
  type ProofRecord,
  type ProviderRecord,
  type ReportRecord,
} from '../schemas/dataset.ts';
import { readCategories, readContext, readReports, type CategoriesRead, type DatasetCounts, type ReadContext, type SmallFilesSink } from './dataset-reader.ts';
import { datasetHashOf, tableDigest } from './dataset-hash.ts';
import { LineReader } from './dataset-lines.ts';
import { recordHash } from './dataset-records.ts';
import { matchLines, type FileMatch, type FreshLine } from './line-match.ts';
import { hashHi, hashLo, readLineTable, type LineTable } from './line-table.ts';
import { categoryNameChains, type CategoryNames } from './snapshot-writer.ts';
import { checkRecord } from './validate-zod.ts';
import { DatasetInvalidError, IssueLog, type DatasetIssue } from './validate-issues.ts';

/** Why the scan stopped: a full build is needed. */
export class FullBuildNeeded extends Error {}

export interface DatasetChange {
  counts: DatasetCounts;
  categoryNames: CategoryNames;
  /** providers to (re)write, edited ones at their rowid, new ones after the base's last */
  providers: { record: ProviderRecord; rowid: number }[];
  /** rowids of the base's providers that are gone from the dataset */
  removed: number[];
  proofs: { record: ProofRecord; rowid: number; hash: Buffer }[];
  /** ids of the base's proofs that are gone or edited */
  proofsReplaced: string[];
  /** rowids of providers whose proofs changed (their facts change) */
  proofOwners: Set<number>;
  reports: ReportRecord[];
  notes: string[];
  /** the line tables of the files as read (line-table.ts), to store; no proofs' when there is no proofs.ndjson */
  lineTables: { providers: LineTable; proofs: LineTable | null };
  /** snapshot_meta.dataset_hash (dataset-hash.ts) */
  datasetHash: string;
}

/** A stored proof: its provider and which stored line it is. */
const PROOF_SQL = 'SELECT p.provider_rowid, l.hash FROM proofs p JOIN proof_lines l ON l.id = p.id WHERE p.id = ?';
const PROOFS_OF_SQL = 'SELECT p.id, l.hash FROM proofs p JOIN proof_lines l ON l.id = p.id WHERE p.provider_rowid = ?';

/** The parsed record of a fresh line, or undefined (reported, as the reader reports it). */
function parseLine(file: string, l: FreshLine, found: DatasetIssue[]): unknown {
  try {
    return JSON.parse(l.text);
  } catch (err) {
    found.push({ file, line: l.line, place: 'line', field: '', message: `invalid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

/** The lines of `file` matched with the base's table of it (the reader closed, read to its end or not). */
function matchFile(file: string, stored: LineTable, keep: (index: number) => boolean, tooLarge: (n: number) => void): FileMatch {
  const reader = new LineReader(file);
  try {
    return matchLines(reader, stored, keep, tooLarge);
  } finally {
    reader.close();
  }
}

export function scanDatasetChange(base: Database.Database, inputDir: string, meta: Map<string, string>, limit: number): DatasetChange {
  const change: Omit<DatasetChange, 'lineTables' | 'datasetHash'> = {
    counts: { categories: 0, providers: 0, proofs: 0, reports: 0, skipped: 0 },
    categoryNames: new Map(),
    providers: [],
    removed: [],
    proofs: [],
    proofsReplaced: [],
    proofOwners: new Set(),
    reports: [],
    notes: [],
  };
  const sink: SmallFilesSink = {
    categories(accepted: Array<{ record: CategoryRecord; index: number }>) {
      const records = accepted.map((a) => a.record);
      if (recordHash(records) !== meta.get('categories_hash')) throw new FullBuildNeeded('the taxonomy (categories.json) changed');
      change.categoryNames = categoryNameChains(records);
    },
    report(record) {
      change.reports.push(record);
    },
  };
  const issues = new IssueLog();
  const context = readContext(inputDir, sink, { issues, skipInvalid: false, notes: change.notes });
  const categories = readCategories(context);
  const tooLarge = (n: number) => {
    if (n > limit) throw new FullBuildNeeded(`more than ${limit} providers changed`);
  };
  const found: DatasetIssue[] = [];
  const providers = scanProviders(context, base, categories, change, found, tooLarge);
  const proofs = scanProofs(context, base, providers, change, found, tooLarge);
  const { digests } = context;
  digests.set(DATASET_FILES.providers, tableDigest(providers.table));
  digests.set(DATASET_FILES.proofs, proofs && tableDigest(proofs));
  found.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file === DATASET_FILES.providers ? -1 : 1));
  for (const issue of found) issues.add(issue);
  readReports(context, categories.slugs);
  change.counts = context.counts;
  if (issues.count > 0) throw new DatasetInvalidError(issues.kept, issues.count);
  for (let rowid = 1; rowid <= providers.maxRowid; rowid++) {
    if (providers.based[rowid] && !providers.alive[rowid]) change.removed.push(rowid);
  }
  tooLarge(change.providers.length + change.proofOwners.size);
  return { ...change, lineTables: { providers: providers.table, proofs }, datasetHash: datasetHashOf(digests) };
}

interface ProvidersScanned {
  maxRowid: number;
  /** 1 for each rowid the base has a provider at */
  based: Uint8Array;
  /** line of each base provider whose line is unchanged (0: changed or gone) */
  unchangedLine: Uint32Array;
  /** 1 for each base rowid in the dataset (unchanged or edited) */
  alive: Uint8Array;
  /** id -> rowid of the providers of fresh lines that passed */
  newIds: Map<string, number>;
  /** ids of fresh lines that did not pass (their proofs are not reported again) */
  rejectedIds: Set<string>;
  table: LineTable;
}

type Change = Omit<DatasetChange, 'lineTables' | 'datasetHash'>;

function scanProviders(
  context: ReadContext<SmallFilesSink>,
  base: Database.Database,
  categories: CategoriesRead,
  change: Change,
  found: DatasetIssue[],
  tooLarge: (n: number) => void,
): ProvidersScanned {
  const file = DATASET_FILES.providers;
  if (!fs.existsSync(context.fileIn(file))) context.fatal({ file, field: '', message: `not found in ${context.dir} (required)` });
  const { counts } = context;
  const maxRowid = (base.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0;
  const stored = readLineTable(base, file);
  const match = matchFile(context.fileIn(file), stored, () => true, tooLarge);
  const based = new Uint8Array(maxRowid + 1);
  const unchangedLine = new Uint32Array(maxRowid + 1);
  const alive = new Uint8Array(maxRowid + 1);
  stored.records.forEach((rowid, i) => {
    if (rowid === 0) return;
    based[rowid] = 1;
    if (match.keptAt[i] === 0) return;
    unchangedLine[rowid] = match.keptAt[i]!;
    alive[rowid] = 1;
    counts.providers++;
  });
  const rowidOfId = base.prepare('SELECT rowid FROM providers WHERE id = ?').pluck();
  const rowidOfSlug = base.prepare('SELECT rowid FROM providers WHERE slug = ?').pluck();
  const newIds = new Map<string, number>();
  const lineOfNewSlug = new Map<string, number>();
  const rejectedIds = new Set<string>();
  let nextRowid = maxRowid + 1;
  for (const l of match.fresh) {
    const where = { file, line: l.line, place: 'line' as const };
    const record = parseLine(file, l, found);
    if (record === undefined) {
      counts.skipped++;
      continue;
    }
    const checked = checkRecord(ProviderRecordSchema, record);
    if (!checked.ok) {
      for (const issue of checked.issues) found.push({ ...where, ...issue });
      const id = typeof record === 'object' && record !== null && 'id' in record ? record.id : undefined;
      if (typeof id === 'string' && !newIds.has(id)) rejectedIds.add(id);
      counts.skipped++;
      continue;
    }
    const p = checked.value;
    const problems: Array<[string, string]> = [];
    /** the same id or slug on an unchanged line further down: that line is the duplicate */
    const later: DatasetIssue[] = [];
    const baseRowid = rowidOfId.get(p.id) as number | undefined;
    const idLine = baseRowid === undefined ? 0 : unchangedLine[baseRowid]!;
    if (newIds.has(p.id) || (idLine > 0 && idLine < l.line)) problems.push(['id', `duplicate id "${p.id}"`]);
    else if (idLine > l.line) later.push({ file, line: idLine, place: 'line', field: 'id', message: `duplicate id "${p.id}"` });
    const slugRowid = rowidOfSlug.get(p.slug) as number | undefined;
    const slugLine = lineOfNewSlug.get(p.slug) ?? (slugRowid === undefined ? 0 : unchangedLine[slugRowid]!);
    if (slugLine > 0 && slugLine < l.line) problems.push(['slug', `duplicate slug "${p.slug}" (first on line ${slugLine})`]);
    else if (slugLine > l.line) later.push({ file, line: slugLine, place: 'line', field: 'slug', message: `duplicate slug "${p.slug}" (first on line ${l.line})` });
    p.categoryIds.forEach((id, i) => {
      // a category the taxonomy rejected is reported there (the reader's dependent issue, not repeated)
      if (!categories.ids.has(id)) problems.push(categories.rejectedIds.has(id) ? ['', ''] : [`categoryIds[${i}]`, `unknown category id "${id}"`]);
    });
    if (problems.length > 0) {
      for (const [field, message] of problems) if (message) found.push({ ...where, field, message });
      if (!newIds.has(p.id)) rejectedIds.add(p.id);
      counts.skipped++;
      continue;
    }
    found.push(...later);
    const rowid = baseRowid !== undefined && idLine === 0 ? baseRowid : nextRowid++;
    if (rowid <= maxRowid) alive[rowid] = 1;
    newIds.set(p.id, rowid);
    lineOfNewSlug.set(p.slug, l.line);
    match.table.setRecord(l.line - 1, rowid);
    change.providers.push({ record: p, rowid });
    counts.providers++;
  }
  change.providers.sort((a, b) => a.rowid - b.rowid);
  return { maxRowid, based, unchangedLine, alive, newIds, rejectedIds, table: match.table.finish() };
}

function scanProofs(
  context: ReadContext<SmallFilesSink>,
  base: Database.Database,
  providers: ProvidersScanned,
  change: Change,
  found: DatasetIssue[],
  tooLarge: (n: number) => void,
): LineTable | null {
  const file = DATASET_FILES.proofs;
  const { counts } = context;
  const { unchangedLine, alive, newIds, rejectedIds } = providers;
  const stored = readLineTable(base, file);
  /** 1 for each stored proof line whose proof is kept or rewritten under its id */
  const accounted = new Uint8Array(stored.spans.length);
  let table: LineTable | null = null;
  if (!fs.existsSync(context.fileIn(file))) context.options.notes?.push(`${file} not found: building without proofs`);
  else {
    // a stored proof kept as it is: its line unchanged, and its provider's line unchanged or edited under the same id
    const match = matchFile(context.fileIn(file), stored, (i) => alive[stored.records[i]!] === 1, tooLarge);
    match.keptAt.forEach((line, i) => {
      if (line === 0) return;
      accounted[i] = 1;
      counts.proofs++;
    });
    const storedProof = base.prepare(PROOF_SQL).raw();
    const rowidOfId = base.prepare('SELECT rowid FROM providers WHERE id = ?').pluck();
    const newProofIds = new Set<string>();
    for (const l of match.fresh) {
      const where = { file, line: l.line, place: 'line' as const };
      const record = parseLine(file, l, found);
      const checked = record === undefined ? null : checkRecord(ProofRecordSchema, record);
      if (!checked?.ok) {
        if (checked) for (const issue of checked.issues) found.push({ ...where, ...issue });
        counts.skipped++;
        continue;
      }
      const proof = checked.value;
      const before = storedProof.get(proof.id) as [number, Buffer] | undefined;
      const position = before ? match.storedLineOf(hashHi(before[1]), hashLo(before[1])) : -1;
      const idLine = position >= 0 ? match.keptAt[position]! : 0;
      const baseRowid = rowidOfId.get(proof.providerId) as number | undefined;
      const rowid = newIds.get(proof.providerId) ?? (baseRowid !== undefined && unchangedLine[baseRowid] ? baseRowid : undefined);
      if (newProofIds.has(proof.id) || (idLine > 0 && idLine < l.line)) found.push({ ...where, field: 'id', message: `duplicate id "${proof.id}"` });
      else if (rowid === undefined && !rejectedIds.has(proof.providerId)) {
        found.push({ ...where, field: 'providerId', message: `provider "${proof.providerId}" is unknown` });
      } else if (rowid !== undefined) {
        if (idLine > l.line) found.push({ file, line: idLine, place: 'line', field: 'id', message: `duplicate id "${proof.id}"` });
        newProofIds.add(proof.id);
        if (before) {
          change.proofsReplaced.push(proof.id);
          change.proofOwners.add(before[0]);
          if (position >= 0) accounted[position] = 1;
        }
        match.table.setRecord(l.line - 1, rowid);
        change.proofs.push({ record: proof, rowid, hash: l.hash });
        change.proofOwners.add(rowid);
        counts.proofs++;
        continue;
      }
      counts.skipped++;
    }
    table = match.table.finish();
  }
  goneProofs(base, stored, accounted, change, tooLarge);
  return table;
}

/** The base's proofs neither kept nor rewritten: found by their providers' proofs and line hashes. */
function goneProofs(base: Database.Database, stored: LineTable, accounted: Uint8Array, change: Change, tooLarge: (n: number) => void): void {
  const gone = new Map<number, Set<string>>(); // provider rowid -> the hashes (hi:lo) of its gone proof lines
  stored.records.forEach((rowid, i) => {
    if (rowid === 0 || accounted[i]) return;
    const hashes = gone.get(rowid) ?? new Set<string>();
    hashes.add(`${stored.hashes[2 * i]}:${stored.hashes[2 * i + 1]}`);
    gone.set(rowid, hashes);
  });
  tooLarge(change.providers.length + new Set([...change.proofOwners, ...gone.keys()]).size);
  const proofsOf = base.prepare(PROOFS_OF_SQL).raw();
  for (const [rowid, hashes] of gone) {
    for (const [id, hash] of proofsOf.all(rowid) as [string, Buffer][]) {
      if (!hashes.has(`${hashHi(hash)}:${hashLo(hash)}`)) continue;
      change.proofsReplaced.push(id);
      change.proofOwners.add(rowid);
    }
  }
}
