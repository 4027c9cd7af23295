/**
 * An incremental snapshot build: the base (the live snapshot) is COPIED next to the
 * target (reflinked where the filesystem can) and only the change is applied to the
 * copy; the base is never written. The copy starts before the dataset is checked
 * (startBaseCopy): the scan reads the dataset on this thread while the kernel copies on
 * another (4 GB at 1,000,000 providers: 4-8 s of copy on ext4, no reflink). The dataset
 * is checked in full, its unchanged lines by their hash (incremental-scan.ts), before
 * anything is written to the copy: a dataset error fails as a full build fails, and the
 * copy is removed (discardCopy).
 *
 * Applied with the base's frozen statistics (frozen-stats.ts), for the providers
 * added, edited and gone: their rows, links, tags, proofs, proof_lines; dataset_lines
 * (the line tables the scan made of the files as read); FTS and
 * vec0 rows; search_postings (incremental-postings.ts); vector_partitions
 * (incremental-vectors.ts); published_places and place names (place-names.ts),
 * published_summaries, search_columns, published_facts; the reports; snapshot_meta
 * with the drift (snapshot-drift.ts). What it must equal: buildSnapshot with
 * frozenFrom = the base (tests/snapshot/incremental*.test.ts).
 * The FTS index is not merged (a small new segment); the next full build merges it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { BuildResult } from './build.ts';
import { incrementalMetaRows } from './build.ts';
import { removeTemp, moveIntoPlace } from './build-file.ts';
import { DATASET_FILES } from '../schemas/dataset.ts';
import { frozenBm25, metaMap } from './frozen-stats.ts';
import { loadModel } from './embedder-builtin.ts';
import { scanDatasetChange, type DatasetChange } from './incremental-scan.ts';
import { updatePostings, type Doc } from './incremental-postings.ts';
import { updateVectors } from './incremental-vectors.ts';
import { updatePlaces } from './place-names.ts';
import { writePublishedFacts } from './published-facts.ts';
import { updateSearchColumns } from './search-columns.ts';
import { SnapshotWriter, namesOfCategories } from './snapshot-writer.ts';
import { driftFigures } from './snapshot-drift.ts';
import { readFrozenLists } from './vector-frozen.ts';
import { SCHEMA_VERSION } from './schema-version.ts';
import type { TextRow } from './provider-vectors.ts';

export interface IncrementalResult extends BuildResult {
  /** providers added, edited (or with proofs edited) and gone */
  changed: { added: number; edited: number; removed: number };
  /** seconds the copy of the base took (beside the scan) */
  copySeconds: number;
  /** seconds from the end of the scan to the end of the copy: what the copy added */
  copyWaitSeconds: number;
  /** seconds of each step of applying the change, in order */
  steps: Record<string, number>;
}

/** Seconds per step: `step(name)` ends the step before it. */
function stepClock() {
  const steps: Record<string, number> = {};
  let name = '';
  let started = performance.now();
  const step = (next: string) => {
    const now = performance.now();
    if (name) steps[name] = (steps[name] ?? 0) + (now - started) / 1000;
    name = next;
    started = now;
  };
  return { steps, step };
}

const OLD_ROW_SQL = `SELECT p.rowid, p.slug, p.company_name, p.tagline, p.description, p.capability_tags, p.industry_focus, p.city, p.city_slug, p.province,
  (SELECT group_concat(pc.category_id, char(31)) FROM provider_categories pc WHERE pc.provider_rowid = p.rowid) AS category_ids
  FROM published_providers p WHERE p.rowid IN (SELECT value FROM json_each(?))`;

/** A changed provider's row in the base: the text columns the embedder and the postings read, its city and slug. */
interface OldRow extends TextRow {
  slug: string;
  city_slug: string | null;
}

/** The change scanned against the base (read only), or the reason a full build is needed. */
export async function scanAgainst(base: string, inputDir: string, limit: number): Promise<DatasetChange> {
  const db = new Database(base, { readonly: true, fileMustExist: true });
  try {
    return scanDatasetChange(db, inputDir, metaMap(db), limit);
  } finally {
    db.close();
  }
}

/** The base being copied next to the target, as the change is applied to it (a copy in the thread pool). */
export interface BaseCopy {
  outFile: string;
  file: string;
  /** the copy's seconds once it is done (0 for a copy made ahead) */
  done: Promise<number>;
  /** the copy made ahead it was taken from (the rebuild's spare, src/ops/spare-snapshot.ts) */
  madeAhead?: string;
}

/**
 * Starts the copy of `base` beside `outFile`; with `madeAhead` (a whole copy of the same
 * bytes, made after the last publish), renames that into place instead.
 */
export function startBaseCopy(base: string, outFile: string, madeAhead?: string): BaseCopy {
  const out = path.resolve(outFile);
  const file = `${out}.tmp-${process.pid}`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  removeTemp(file);
  if (madeAhead) {
    fs.renameSync(madeAhead, file);
    return { outFile: out, file, done: Promise.resolve(0), madeAhead };
  }
  const started = performance.now();
  const done = fs.promises.copyFile(base, file, fs.constants.COPYFILE_FICLONE).then(() => (performance.now() - started) / 1000);
  done.catch(() => {}); // awaited by buildIncremental or discardCopy; this only avoids an unhandled rejection meanwhile
  return { outFile: out, file, done };
}

/**
 * Removes a copy no build will use, once the copy is done (a copy running cannot be
 * stopped). `unwritten`: nothing was written to it, so a copy made ahead goes back
 * where it was, for the next try.
 */
export async function discardCopy(copy: BaseCopy, unwritten = false): Promise<void> {
  await copy.done.catch(() => {});
  if (unwritten && copy.madeAhead) fs.renameSync(copy.file, copy.madeAhead);
  else removeTemp(copy.file);
}

export async function buildIncremental(o: { inputDir: string; copy: BaseCopy; change: DatasetChange }): Promise<IncrementalResult> {
  const started = performance.now();
  const { outFile, file: tmpFile } = o.copy;
  let db: Database.Database | undefined;
  try {
    const copySeconds = await o.copy.done;
    const copyWaitSeconds = (performance.now() - started) / 1000;
    db = new Database(tmpFile);
    sqliteVec.load(db);
    db.pragma('journal_mode = PERSIST');
    db.pragma('synchronous = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('foreign_keys = OFF');
    const clock = stepClock();
    const result = await apply(db, o.change, o.inputDir, clock.step);
    clock.step('close');
    db.pragma('locking_mode = NORMAL');
    db.pragma('journal_mode = DELETE');
    db.close();
    db = undefined;
    moveIntoPlace(tmpFile, outFile);
    clock.step('');
    return { ...result, outFile, copySeconds, copyWaitSeconds, steps: clock.steps, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    if (db?.open) db.close();
    await discardCopy(o.copy);
    throw err;
  }
}

async function apply(db: Database.Database, change: DatasetChange, inputDir: string, step: (name: string) => void) {
  step('open');
  const meta = metaMap(db);
  const model = loadModel(db);
  if (!model) throw new Error('the base snapshot holds no built-in embedder model');
  const frozen = frozenBm25(db, meta, false);
  const lists = readFrozenLists(db, Number(meta.get('embedder_dims')));
  const names = change.categoryNames;
  // providers written at a rowid the base has are edits: their old rows go first
  const baseMax = (db.prepare('SELECT max(rowid) FROM providers').pluck().get() as number | null) ?? 0;
  const replaced = [...new Set([...change.removed, ...change.providers.filter((p) => p.rowid <= baseMax).map((p) => p.rowid)])];
  const replacedJson = JSON.stringify(replaced);
  const oldRows = db.prepare(OLD_ROW_SQL).all(replacedJson) as OldRow[];
  const ftsOf = (r: Omit<OldRow, 'rowid' | 'slug' | 'city_slug'>) => [
    r.company_name, r.tagline, r.description, (JSON.parse(r.capability_tags) as string[]).join(' '), (JSON.parse(r.industry_focus) as string[]).join(' '),
    namesOfCategories(names, r.category_ids ? r.category_ids.split('\x1f') : []).join(' '), r.city ?? '', r.province ?? '',
  ];
  const removedDocs: Doc[] = oldRows.map((r) => ({ rowid: r.rowid, columns: ftsOf(r) }));
  const addedDocs: Doc[] = [];

  step('delete');
  db.transaction(() => {
    const deleteFts = db.prepare(`INSERT INTO fts_providers (fts_providers, rowid, company_name, tagline, description, capability_tags, industry_focus, category_names, city, province) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const d of removedDocs) deleteFts.run(d.rowid, ...d.columns);
    for (const table of ['provider_dashboard', 'provider_commercial_raw', 'provider_categories', 'provider_tags']) {
      db.prepare(`DELETE FROM ${table} WHERE provider_rowid IN (SELECT value FROM json_each(?))`).run(replacedJson);
    }
    db.prepare('DELETE FROM published_summaries WHERE rowid IN (SELECT value FROM json_each(?))').run(replacedJson);
    db.prepare('DELETE FROM providers WHERE rowid IN (SELECT value FROM json_each(?))').run(replacedJson);
    const replacedProofs = JSON.stringify(change.proofsReplaced);
    db.prepare('DELETE FROM proofs WHERE id IN (SELECT value FROM json_each(?))').run(replacedProofs);
    db.prepare('DELETE FROM proof_lines WHERE id IN (SELECT value FROM json_each(?))').run(replacedProofs);
    db.exec('DELETE FROM reports');
  })();
  step('write');
  const writer = new SnapshotWriter(db, { add: (rowid, columns) => addedDocs.push({ rowid, columns: [...columns] }), drain: async () => {} });
  writer.categoryNames = names;
  for (const { record, rowid } of change.providers) writer.provider(record, rowid);
  for (const { record, rowid, hash } of change.proofs) writer.proof(record, rowid, hash);
  for (const report of change.reports) writer.report(report);
  writer.lines(DATASET_FILES.providers, change.lineTables.providers);
  if (change.lineTables.proofs) writer.lines(DATASET_FILES.proofs, change.lineTables.proofs);
  else db.prepare('DELETE FROM dataset_lines WHERE file = ?').run(DATASET_FILES.proofs);
  writer.finish();

  step('postings');
  const postings = updatePostings(db, frozen, removedDocs, addedDocs);
  const removedSet = new Set(removedDocs.map((d) => d.rowid));
  step('vectors');
  updateVectors(db, model, lists, names, removedSet, addedDocs.map((d) => d.rowid));
  const written = change.providers.map((p) => p.rowid);
  step('places');
  const renamed = updatePlaces(db, oldRows, written);
  step('summaries');
  const summaryRows = JSON.stringify([...new Set([...written, ...renamed])]);
  const columns = (db.prepare("SELECT name FROM pragma_table_info('published_summaries')").pluck().all() as string[]).join(', ');
  db.transaction(() => {
    db.prepare('DELETE FROM published_summaries WHERE rowid IN (SELECT value FROM json_each(?))').run(summaryRows);
    db.prepare(`INSERT INTO published_summaries (${columns}) SELECT ${columns} FROM published_providers WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid`).run(summaryRows);
  })();
  step('search_columns');
  const published = updateSearchColumns(db, [...new Set([...replaced, ...written])]);
  step('facts');
  // the facts rows replaced: those of the rewritten rows' old slugs, and of the other rows changed
  const factRows = [...new Set([...replaced, ...written, ...renamed, ...change.proofOwners])];
  const others = JSON.stringify(factRows.filter((r) => !replaced.includes(r)));
  const formerSlugs = [...oldRows.map((r) => r.slug), ...(db.prepare('SELECT slug FROM providers WHERE rowid IN (SELECT value FROM json_each(?))').pluck().all(others) as string[])];
  writePublishedFacts(db, { rowids: factRows, formerSlugs });

  step('meta');
  const current = { documents: Number(meta.get('bm25_current_documents')) + postings.documents, totalLength: Number(meta.get('bm25_current_length')) + postings.totalLength };
  const added = change.providers.length - (replaced.length - change.removed.length);
  const edited = new Set([...replaced.filter((r) => !change.removed.includes(r)), ...[...change.proofOwners].filter((r) => !change.removed.includes(r))]).size;
  const touched = added + edited + change.removed.length;
  const counts = change.counts;
  const drift = driftFigures(db, frozen, current, Number(meta.get('drift_changed') ?? 0) + touched, counts.providers, Number(meta.get('drift_df_abs') ?? 0) + postings.dfAbs);
  const datasetHash = change.datasetHash;
  const builtAt = new Date().toISOString();
  const snapshotId = `${datasetHash.slice(0, 16)}-${builtAt.replace(/[-:.]/g, '')}-${crypto.randomBytes(2).toString('hex')}`;
  const rows: Record<string, string | number> = {
    schema_version: SCHEMA_VERSION,
    snapshot_id: snapshotId,
    built_at: builtAt,
    dataset_source: path.resolve(inputDir),
    dataset_hash: datasetHash,
    count_providers: counts.providers,
    count_published: published,
    count_categories: counts.categories,
    count_proofs: counts.proofs,
    count_reports: counts.reports,
    ...incrementalMetaRows(db, {
      mode: 'incremental',
      categoriesHash: meta.get('categories_hash')!,
      reportsHash: writer.reportsHash,
      bm25: frozen,
      current,
      spillFrom: lists.spillFrom,
      fullBuildId: meta.get('full_build_id')!,
      drift,
    }, snapshotId),
  };
  const upsert = db.prepare('INSERT OR REPLACE INTO snapshot_meta (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [k, v] of Object.entries(rows)) upsert.run(k, String(v));
  })();
  return {
    snapshotId,
    builtAt,
    datasetHash,
    counts: { ...counts, published },
    embedder: { name: model.name, dims: model.dims },
    embedThreads: 1,
    issues: [],
    issueCount: 0,
    notes: change.notes,
    languageData: `language bridge kept from the base (${meta.get('language_data') ?? ''})`,
    timings: {},
    changed: { added, edited, removed: change.removed.length },
  };
}
