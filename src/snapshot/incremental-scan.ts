/**
 * The first step of an incremental build (build-incremental.ts): the dataset read
 * and validated in full, as a full build reads it (dataset-reader.ts), each record
 * hashed and compared with the base snapshot's dataset_records. What comes out is
 * the change: the providers added, edited or gone, the proofs new, edited or gone,
 * and the reports. The base is only read. A taxonomy change, or a change larger than
 * the limit, ends the scan: the caller builds in full.
 */
import type Database from 'better-sqlite3';
import type { CategoryRecord, ProofRecord, ProviderRecord, ReportRecord } from '../schemas/dataset.ts';
import { readDataset, type DatasetCounts, type DatasetSink } from './dataset-reader.ts';
import { recordHash, recordLookup } from './dataset-records.ts';
import { categoryNameChains, type CategoryNames } from './snapshot-writer.ts';
import { DatasetInvalidError, IssueLog } from './validate-issues.ts';

/** Why the scan stopped: a full build is needed. */
export class FullBuildNeeded extends Error {}

export interface DatasetChange {
  counts: DatasetCounts;
  categoryNames: CategoryNames;
  /** providers to (re)write, edited ones at their rowid, new ones after the base's last */
  providers: { record: ProviderRecord; rowid: number }[];
  /** rowids of the base's providers that are gone from the dataset */
  removed: number[];
  proofs: { record: ProofRecord; rowid: number }[];
  /** ids of the base's proofs that are gone or edited */
  proofsReplaced: string[];
  /** rowids of providers whose proofs changed (their facts change) */
  proofOwners: Set<number>;
  reports: ReportRecord[];
  notes: string[];
}

export async function scanDatasetChange(base: Database.Database, inputDir: string, meta: Map<string, string>, limit: number): Promise<DatasetChange> {
  const lookup = recordLookup(base);
  const maxRowid = (base.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0;
  const seen = new Uint8Array(maxRowid + 1);
  const seenProofs = new Set<string>();
  let nextRowid = maxRowid + 1;
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
  const tooLarge = () => {
    if (change.providers.length + change.proofOwners.size > limit) throw new FullBuildNeeded(`more than ${limit} providers changed`);
  };
  const sink: DatasetSink = {
    categories(accepted: Array<{ record: CategoryRecord; index: number }>) {
      const records = accepted.map((a) => a.record);
      if (recordHash(records) !== meta.get('categories_hash')) throw new FullBuildNeeded('the taxonomy (categories.json) changed');
      change.categoryNames = categoryNameChains(records);
    },
    provider(record) {
      const stored = lookup('provider', record.id);
      if (!stored) {
        change.providers.push({ record, rowid: nextRowid });
        tooLarge();
        return nextRowid++;
      }
      seen[stored.rowid] = 1;
      if (stored.hash !== recordHash(record)) {
        change.providers.push({ record, rowid: stored.rowid });
        tooLarge();
      }
      return stored.rowid;
    },
    proof(record, rowid) {
      seenProofs.add(record.id);
      const stored = lookup('proof', record.id);
      if (stored && stored.hash === recordHash(record) && stored.rowid === rowid) return;
      if (stored) {
        change.proofsReplaced.push(record.id);
        change.proofOwners.add(stored.rowid);
      }
      change.proofs.push({ record, rowid });
      change.proofOwners.add(rowid);
      tooLarge();
    },
    report(record) {
      change.reports.push(record);
    },
  };
  const issues = new IssueLog();
  change.counts = await readDataset(inputDir, sink, { issues, skipInvalid: false, notes: change.notes });
  if (issues.count > 0) throw new DatasetInvalidError(issues.kept, issues.count);
  const records = base.prepare('SELECT kind, key, provider_rowid FROM dataset_records').raw().iterate() as IterableIterator<[string, string, number]>;
  for (const [kind, key, rowid] of records) {
    if (kind === 'provider' && !seen[rowid]) change.removed.push(rowid);
    else if (kind === 'proof' && !seenProofs.has(key)) {
      change.proofsReplaced.push(key);
      change.proofOwners.add(rowid);
    }
  }
  change.providers.sort((a, b) => a.rowid - b.rowid);
  return change;
}
