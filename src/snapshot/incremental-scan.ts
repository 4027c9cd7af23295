/**
 * The first step of an incremental build (build-incremental.ts): what changed between the
 * dataset and the base snapshot, with the dataset fully checked, at a cost that grows with
 * the change. Each line of providers.ndjson and proofs.ndjson is hashed as raw bytes
 * (dataset-lines.ts) and looked up among the line hashes the base stores (dataset_records,
 * dataset-records.ts). A line the base's build found valid is valid again (a record's
 * validity depends on its bytes and the taxonomy; a taxonomy change ends the scan); only
 * the other lines are parsed and validated, as the full reader does (dataset-reader.ts),
 * and the checks across records look the unchanged ones up in the base's tables: ids and
 * slugs taken, proofs' providers present. Errors name file, line and field as a full
 * build's do. Categories and reports are small and read with the full reader.
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
import { forEachLine } from './dataset-lines.ts';
import { lineHash, recordHash } from './dataset-records.ts';
import { LineHashIndex } from './line-hash-index.ts';
import { categoryNameChains, type CategoryNames } from './snapshot-writer.ts';
import { checkRecord } from './validate-zod.ts';
import { DatasetInvalidError, IssueLog, type DatasetIssue } from './validate-issues.ts';

/** Why the scan stopped: a full build is needed. */
export class FullBuildNeeded extends Error {}

export interface DatasetChange {
  counts: DatasetCounts;
  categoryNames: CategoryNames;
  /** providers to (re)write, edited ones at their rowid, new ones after the base's last */
  providers: { record: ProviderRecord; rowid: number; hash: Buffer }[];
  /** rowids of the base's providers that are gone from the dataset */
  removed: number[];
  proofs: { record: ProofRecord; rowid: number; hash: Buffer }[];
  /** ids of the base's proofs that are gone or edited */
  proofsReplaced: string[];
  /** rowids of providers whose proofs changed (their facts change) */
  proofOwners: Set<number>;
  reports: ReportRecord[];
  notes: string[];
}

/** A line whose hash the base does not hold: parsed and checked. */
interface NewLine {
  line: number;
  text: string;
  hash: Buffer;
}

/** The base's line hashes: providers' map to their rowid, proofs' to their position in key order. */
interface StoredLines {
  providers: LineHashIndex;
  proofs: LineHashIndex;
  /** 1 for each rowid the base has a provider at */
  providerRowids: Uint8Array;
  proofRowid: Uint32Array;
  maxRowid: number;
}

const PROOFS_SQL = "SELECT provider_rowid, hex(substr(hash, 1, 8)) FROM dataset_records WHERE kind = 'proof' ORDER BY key";

function readStored(base: Database.Database): StoredLines {
  const maxRowid = (base.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0;
  const count = (kind: string) => base.prepare('SELECT count(*) FROM dataset_records WHERE kind = ?').pluck().get(kind) as number;
  const providers = new LineHashIndex(count('provider'));
  const providerRowids = new Uint8Array(maxRowid + 1);
  for (const [rowid, hash] of base.prepare("SELECT provider_rowid, hex(substr(hash, 1, 8)) FROM dataset_records WHERE kind = 'provider'").raw().iterate() as IterableIterator<[number, string]>) {
    providers.add(hash, rowid);
    providerRowids[rowid] = 1;
  }
  const proofCount = count('proof');
  const proofs = new LineHashIndex(proofCount);
  const proofRowid = new Uint32Array(proofCount);
  let position = 0;
  for (const [rowid, hash] of base.prepare(PROOFS_SQL).raw().iterate() as IterableIterator<[number, string]>) {
    proofs.add(hash, position);
    proofRowid[position++] = rowid;
  }
  return { providers, proofs, providerRowids, proofRowid, maxRowid };
}

/** The parsed record of a new line, or undefined (reported, as the reader reports it). */
function parseLine(file: string, l: NewLine, found: DatasetIssue[]): unknown {
  try {
    return JSON.parse(l.text);
  } catch (err) {
    found.push({ file, line: l.line, place: 'line', field: '', message: `invalid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

export async function scanDatasetChange(base: Database.Database, inputDir: string, meta: Map<string, string>, limit: number): Promise<DatasetChange> {
  const change: DatasetChange = {
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
  const stored = readStored(base);
  const tooLarge = (n: number) => {
    if (n > limit) throw new FullBuildNeeded(`more than ${limit} providers changed`);
  };
  const found: DatasetIssue[] = [];
  const providers = await scanProviders(context, base, stored, categories, change, found, tooLarge);
  await scanProofs(context, base, stored, providers, change, found, tooLarge);
  found.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file === DATASET_FILES.providers ? -1 : 1));
  for (const issue of found) issues.add(issue);
  readReports(context, categories.slugs);
  change.counts = context.counts;
  if (issues.count > 0) throw new DatasetInvalidError(issues.kept, issues.count);
  for (let rowid = 1; rowid <= stored.maxRowid; rowid++) {
    if (stored.providerRowids[rowid] && !providers.alive[rowid]) change.removed.push(rowid);
  }
  tooLarge(change.providers.length + change.proofOwners.size);
  return change;
}

interface ProvidersScanned {
  /** line of each base provider whose line is unchanged (0: changed or gone) */
  unchangedLine: Uint32Array;
  /** 1 for each base rowid in the dataset (unchanged or edited) */
  alive: Uint8Array;
  /** id -> rowid of the providers of new lines that passed */
  newIds: Map<string, number>;
  /** ids of new lines that did not pass (their proofs are not reported again) */
  rejectedIds: Set<string>;
}

async function scanProviders(
  context: ReadContext<SmallFilesSink>,
  base: Database.Database,
  stored: StoredLines,
  categories: CategoriesRead,
  change: DatasetChange,
  found: DatasetIssue[],
  tooLarge: (n: number) => void,
): Promise<ProvidersScanned> {
  const file = DATASET_FILES.providers;
  if (!fs.existsSync(context.fileIn(file))) context.fatal({ file, field: '', message: `not found in ${context.dir} (required)` });
  const { counts } = context;
  const unchangedLine = new Uint32Array(stored.maxRowid + 1);
  const newLines: NewLine[] = [];
  await forEachLine(context.fileIn(file), (line, bytes) => {
    const hash = lineHash(bytes);
    const rowid = stored.providers.find(hash);
    if (rowid > 0 && unchangedLine[rowid] === 0) {
      unchangedLine[rowid] = line;
      counts.providers++;
      return;
    }
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    newLines.push({ line, text, hash });
    tooLarge(newLines.length);
  });
  const alive = new Uint8Array(stored.maxRowid + 1);
  for (let rowid = 1; rowid <= stored.maxRowid; rowid++) if (unchangedLine[rowid]) alive[rowid] = 1;
  const rowidOfId = base.prepare('SELECT rowid FROM providers WHERE id = ?').pluck();
  const rowidOfSlug = base.prepare('SELECT rowid FROM providers WHERE slug = ?').pluck();
  const newIds = new Map<string, number>();
  const lineOfNewSlug = new Map<string, number>();
  const rejectedIds = new Set<string>();
  let nextRowid = stored.maxRowid + 1;
  for (const l of newLines) {
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
    if (rowid <= stored.maxRowid) alive[rowid] = 1;
    newIds.set(p.id, rowid);
    lineOfNewSlug.set(p.slug, l.line);
    change.providers.push({ record: p, rowid, hash: l.hash });
    counts.providers++;
  }
  change.providers.sort((a, b) => a.rowid - b.rowid);
  return { unchangedLine, alive, newIds, rejectedIds };
}

async function scanProofs(
  context: ReadContext<SmallFilesSink>,
  base: Database.Database,
  stored: StoredLines,
  providers: ProvidersScanned,
  change: DatasetChange,
  found: DatasetIssue[],
  tooLarge: (n: number) => void,
): Promise<void> {
  const file = DATASET_FILES.proofs;
  const { counts } = context;
  const { unchangedLine, alive, newIds, rejectedIds } = providers;
  const unchangedProofLine = new Uint32Array(stored.proofRowid.length);
  if (!fs.existsSync(context.fileIn(file))) context.options.notes?.push(`${file} not found: building without proofs`);
  else {
    const newLines: NewLine[] = [];
    await forEachLine(context.fileIn(file), (line, bytes) => {
      const hash = lineHash(bytes);
      const position = stored.proofs.find(hash);
      // unchanged, and its provider's line unchanged or edited under the same id
      if (position >= 0 && unchangedProofLine[position] === 0 && alive[stored.proofRowid[position]!]) {
        unchangedProofLine[position] = line;
        counts.proofs++;
        return;
      }
      const text = bytes.toString('utf8').trim();
      if (text === '') return;
      newLines.push({ line, text, hash });
      tooLarge(newLines.length);
    });
    const storedProof = base.prepare("SELECT hash, provider_rowid FROM dataset_records WHERE kind = 'proof' AND key = ?").raw();
    const rowidOfId = base.prepare('SELECT rowid FROM providers WHERE id = ?').pluck();
    const newProofIds = new Set<string>();
    for (const l of newLines) {
      const where = { file, line: l.line, place: 'line' as const };
      const record = parseLine(file, l, found);
      const checked = record === undefined ? null : checkRecord(ProofRecordSchema, record);
      if (!checked?.ok) {
        if (checked) for (const issue of checked.issues) found.push({ ...where, ...issue });
        counts.skipped++;
        continue;
      }
      const proof = checked.value;
      const before = storedProof.get(proof.id) as [Buffer, number] | undefined;
      const position = before ? stored.proofs.find(before[0]) : -1;
      const idLine = position >= 0 ? unchangedProofLine[position]! : 0;
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
          change.proofOwners.add(before[1]);
        }
        change.proofs.push({ record: proof, rowid, hash: l.hash });
        change.proofOwners.add(rowid);
        counts.proofs++;
        continue;
      }
      counts.skipped++;
    }
  }
  goneProofs(base, unchangedProofLine, new Set(change.proofs.map((p) => p.record.id)), change);
}

/** The base's proofs neither unchanged nor rewritten: read with their keys only when there are some. */
function goneProofs(base: Database.Database, unchangedProofLine: Uint32Array, rewritten: Set<string>, change: DatasetChange): void {
  const unseen = unchangedProofLine.reduce((n, line) => (line === 0 ? n + 1 : n), 0);
  if (unseen === change.proofsReplaced.length) return;
  let position = 0;
  for (const [key, rowid] of base.prepare("SELECT key, provider_rowid FROM dataset_records WHERE kind = 'proof' ORDER BY key").raw().iterate() as IterableIterator<[string, number]>) {
    if (unchangedProofLine[position++] === 0 && !rewritten.has(key)) {
      change.proofsReplaced.push(key);
      change.proofOwners.add(rowid);
    }
  }
}

