/**
 * buildSnapshot: a dataset directory -> one SQLite snapshot file, all or nothing.
 *
 *   const result = await buildSnapshot({ inputDir, outFile, skipInvalid, onProgress });
 *
 * The file is written as `<out>.tmp-<pid>` next to the target (build-file.ts; fast settings: no
 * journal, no fsync per commit, a large cache), then synced and renamed over the
 * target only when it is complete. On any failure the temporary file is deleted
 * and the previous snapshot is left exactly as it was.
 *
 * Steps: validate and load (one streaming pass, dataset-reader.ts; the search
 * postings are collected on the way, search-postings-builder.ts) -> search_postings
 * -> secondary indexes and FTS merge (the embedder's fit runs beside them on a
 * worker, embedder-fit-start.ts), published_places, the places' names (place-names.ts), published_summaries,
 * search_columns -> embeddings (provider-vectors.ts) ->
 * vector_partitions -> published_facts, bm25_frozen_df -> snapshot_meta -> ANALYZE /
 * PRAGMA optimize -> journal_mode=DELETE -> rename.
 *
 * With `frozenFrom`, the corpus statistics are not computed but taken from that
 * snapshot (frozen-stats.ts): the bm25 statistics, the embedder's model, the vector
 * lists and the language bridge. That is what an incremental build
 * (build-incremental.ts) must equal, and the tests hold it to it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Embedder } from './embedder.ts';
import { readDataset, type DatasetCounts } from './dataset-reader.ts';
import { writeProviderVectors, type BuiltinFit } from './provider-vectors.ts';
import { startPostingsBuilder, type PostingsBuilder } from './search-postings-builder.ts';
import { startBuiltinFit } from './embedder-fit-start.ts';
import { writeLanguageBridge } from '../language/bridge-table.ts';
import type { LanguageData } from '../language/sources.ts';
import { SCHEMA_STATEMENTS, SCHEMA_VERSION } from './snapshot-schema.ts';
import { closeBuildFile, moveIntoPlace, openBuildFile, removeTemp } from './build-file.ts';
import { SnapshotWriter } from './snapshot-writer.ts';
import { writeSearchColumns } from './search-columns.ts';
import { writePlaceNames } from './place-names.ts';
import { DatasetInvalidError, IssueLog, type DatasetIssue } from './validate-issues.ts';
import { DATASET_FILES } from '../schemas/dataset.ts';
import { writePublishedFacts, factsTableHashes } from './published-facts.ts';
import { readFrozenStats, type FrozenStats } from './frozen-stats.ts';
import { driftFigures, type Drift } from './snapshot-drift.ts';

// From about 8,000 providers, collecting the search postings and fitting the
// embedder on worker threads pays for the threads' start (~0.3 s each, overlapped).
const HELPER_THREADS_FROM_BYTES = 16 << 20;

export type BuildPhase = 'providers' | 'proofs' | 'postings' | 'language' | 'indexes' | 'fit' | 'embeddings' | 'partitions' | 'finish';

export interface BuildOptions {
  inputDir: string;
  outFile: string;
  /** Report and leave out invalid records instead of failing. */
  skipInvalid?: boolean;
  /** An external embedder (the entry point opens the one EMBEDDER_* names: openBuildEmbedder); null or absent = fit the built-in one. */
  embedder?: Embedder | null;
  /** Called as work goes by; `done` counts records in the current phase. */
  onProgress?: (phase: BuildPhase, done: number) => void;
  /** Worker threads for the built-in embedder; default: one per core (up to 4) from 20,000 published providers, else 1. */
  embedThreads?: number;
  /** Collect search_postings and fit the built-in embedder on worker threads; default: when providers.ndjson is 16 MB or more. */
  helperThreads?: boolean;
  /** The language data the bridge is built from; default: read from the Debian packages (a few seconds: a caller building several snapshots reads it once). */
  languageData?: LanguageData;
  /** Take the corpus statistics from this snapshot instead of computing them (frozen-stats.ts); the built-in embedder only. */
  frozenFrom?: string;
}

export interface BuildResult {
  outFile: string;
  snapshotId: string;
  builtAt: string;
  datasetHash: string;
  counts: DatasetCounts & { published: number };
  embedder: { name: string; dims: number };
  /** Threads that computed the embeddings. */
  embedThreads: number;
  /** Problems found (first 1,000 kept); non-empty only with skipInvalid. */
  issues: DatasetIssue[];
  issueCount: number;
  /** Notes such as "proofs.ndjson not found: building without proofs". */
  notes: string[];
  /** One line: which language data the language bridge was built from (src/language). */
  languageData: string;
  seconds: number;
  /** Seconds spent in each phase. */
  timings: Partial<Record<BuildPhase, number>>;
}

export async function buildSnapshot(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const inputDir = path.resolve(options.inputDir);
  const outFile = path.resolve(options.outFile);
  const tmpFile = `${outFile}.tmp-${process.pid}`;
  const clock = phaseClock(started, options.onProgress);
  const { progress } = clock;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  removeTemp(tmpFile);

  let db: Database.Database | undefined;
  let postingsStarting: Promise<PostingsBuilder> | undefined;
  let postings: PostingsBuilder | undefined;
  let fit: BuiltinFit | undefined;
  try {
    const external = options.embedder ?? null;
    const frozen = options.frozenFrom ? readFrozenStats(path.resolve(options.frozenFrom)) : undefined;
    if (frozen && (external || !frozen.model)) throw new Error('a build with frozen statistics takes the built-in embedder\'s model from the snapshot: the external embedder is not supported');
    // Frozen statistics are applied by the main thread's postings builder.
    const helperThreads = !frozen && (options.helperThreads ?? providersFileSize(inputDir) >= HELPER_THREADS_FROM_BYTES);
    postingsStarting = startPostingsBuilder(helperThreads);
    postingsStarting.catch(() => {}); // awaited below; this only avoids an unhandled rejection meanwhile
    postings = await postingsStarting;

    db = openBuildFile(tmpFile);
    const loaded = await loadDataset(db, postings, inputDir, options.skipInvalid ?? false, progress);
    // Query-side indexes (issue 7): bm25 contributions per term (collected on the way in),
    // written first so their worker's memory is gone before the fit's worker starts.
    progress('postings', 0);
    const written = await postings.write(db, frozen?.bm25);
    postings = undefined;
    // The built-in embedder is fitted on a sample of the providers, on a worker thread
    // while this one builds the indexes. Not beside anything bigger: next to the proofs'
    // id sets, or the postings, a million-provider build went over 2 GB.
    if (frozen) fit = { embedder: Promise.resolve(frozen.model!), cancel: async () => {} };
    else if (external === null) fit = startBuiltinFit(db, loaded.writer.categoryNames, helperThreads);
    // Dictionary and thesaurus links into the snapshot's own words (src/language), while the fit runs.
    progress('language', 0);
    const bridge = frozen ? copyBridge(db, frozen) : writeLanguageBridge(db, options.languageData);

    progress('indexes', 0);
    createIndexes(db);
    db.exec(COUNT_PUBLISHED_PLACES_SQL);
    writePlaceNames(db);
    copyPublishedSummaries(db);
    writeSearchColumns(db);

    const vectors = await writeProviderVectors(db, external, loaded.writer.categoryNames, progress, options.embedThreads, fit, frozen?.lists);
    fit = undefined;
    progress('partitions', 0);
    const lists = vectors.partitions.write(db);

    progress('finish', 0);
    writePublishedFacts(db, null);
    if (frozen) {
      db.exec(`ATTACH DATABASE '${frozen.file.replace(/'/g, "''")}' AS frozen`);
      db.exec('INSERT INTO bm25_frozen_df SELECT term, df FROM frozen.bm25_frozen_df');
      db.exec('DETACH DATABASE frozen');
    } else db.exec('INSERT INTO bm25_frozen_df (term, df) SELECT term, df FROM search_postings');
    const current = { documents: written.documents, totalLength: written.totalLength };
    const { builtAt, snapshotId } = writeMeta(db, {
      inputDir,
      datasetHash: loaded.datasetHash,
      embedder: vectors,
      languageData: bridge.sources,
      counts: loaded.counts,
      published: loaded.writer.published,
      incremental: {
        mode: frozen ? 'frozen' : 'full',
        categoriesHash: loaded.writer.categoriesHash,
        reportsHash: loaded.writer.reportsHash,
        bm25: frozen ? frozen.bm25 : current,
        current,
        spillFrom: frozen ? frozen.lists.spillFrom : lists.spillFrom,
        fullBuildId: frozen?.fullBuildId,
        // a build with frozen statistics counts no change of its own
        drift: frozen ? driftFigures(db, frozen.bm25, current, Number(frozen.meta.get('drift_changed') ?? 0), loaded.counts.providers) : undefined,
      },
    });
    closeBuildFile(db);
    db = undefined;
    moveIntoPlace(tmpFile, outFile);

    progress('finish', 0);
    return {
      timings: clock.finish(),
      outFile,
      snapshotId,
      builtAt,
      datasetHash: loaded.datasetHash,
      counts: { ...loaded.counts, published: loaded.writer.published },
      embedder: { name: vectors.name, dims: vectors.dims },
      embedThreads: vectors.threads,
      issues: loaded.issues.kept,
      issueCount: loaded.issues.count,
      notes: loaded.notes,
      languageData: bridge.note,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (err) {
    // A worker thread left running would keep the process alive.
    await (postings ?? (await postingsStarting?.catch(() => undefined)))?.close();
    await fit?.cancel();
    try {
      if (db?.open) db.close();
    } catch {
      // closing a broken connection may fail; the file is removed next anyway
    }
    removeTemp(tmpFile);
    throw err;
  }
}

/** Seconds per phase, for the summary line and the benchmarks; `progress` also reports to the caller. */
function phaseClock(started: number, onProgress: BuildOptions['onProgress']) {
  const timings: Partial<Record<BuildPhase, number>> = {};
  let phase: BuildPhase | undefined;
  let phaseStarted = started;
  return {
    progress(next: BuildPhase, done: number): void {
      if (next !== phase) {
        const now = performance.now();
        if (phase) timings[phase] = (timings[phase] ?? 0) + (now - phaseStarted) / 1000;
        phase = next;
        phaseStarted = now;
      }
      onProgress?.(next, done);
    },
    /** The timings, the last phase ('finish') counted up to now. */
    finish(): Partial<Record<BuildPhase, number>> {
      timings.finish = (performance.now() - phaseStarted) / 1000;
      return timings;
    },
  };
}

/** Validates and loads the dataset into the tables; a dataset error fails the build unless skipInvalid. */
async function loadDataset(
  db: Database.Database,
  postings: PostingsBuilder,
  inputDir: string,
  skipInvalid: boolean,
  progress: (phase: BuildPhase, done: number) => void,
) {
  const writer = new SnapshotWriter(db, postings);
  const issues = new IssueLog();
  const notes: string[] = [];
  const { counts, datasetHash } = await readDataset(inputDir, writer, { issues, skipInvalid, notes, onProgress: progress });
  if (issues.count > 0 && !skipInvalid) throw new DatasetInvalidError(issues.kept, issues.count);
  writer.finish();
  return { writer, issues, notes, counts, datasetHash };
}

const COUNT_PUBLISHED_PLACES_SQL = `
  INSERT INTO published_places (city, city_slug, city_name, province, province_name, providers)
  SELECT city, city_slug, city, province, province, COUNT(*) FROM published_providers GROUP BY city, city_slug, province`;

/** published_summaries (schema.sql) from the view, its columns named once: by the table. */
function copyPublishedSummaries(db: Database.Database): void {
  const columns = (db.prepare("SELECT name FROM pragma_table_info('published_summaries')").pluck().all() as string[]).join(', ');
  db.exec(`INSERT INTO published_summaries (${columns}) SELECT ${columns} FROM published_providers ORDER BY rowid`);
}

/** The secondary indexes, each in one sorted pass after the load, and the FTS index merged. */
function createIndexes(db: Database.Database): void {
  db.transaction(() => {
    for (const sql of SCHEMA_STATEMENTS.indexes) db.exec(sql);
  })();
  // One merged FTS b-tree answers queries faster than the many segments a bulk load leaves.
  db.exec("INSERT INTO fts_providers(fts_providers) VALUES ('optimize')");
  // The big sorts are done: a smaller page cache leaves room for the vectors.
  db.pragma('cache_size = -65536');
}

interface MetaInput {
  inputDir: string;
  datasetHash: string;
  embedder: { name: string; dims: number };
  languageData: string;
  counts: DatasetCounts;
  published: number;
  incremental: IncrementalMeta;
}

/** The snapshot_meta rows the next build starts from (schema.sql lists them). */
export interface IncrementalMeta {
  mode: 'full' | 'frozen' | 'incremental';
  categoriesHash: string;
  reportsHash: string;
  /** the frozen bm25 statistics, and those of the published providers now */
  bm25: { documents: number; totalLength: number };
  current: { documents: number; totalLength: number };
  spillFrom: number;
  /** undefined: this is the full build */
  fullBuildId: string | undefined;
  drift: Drift | undefined;
}

/** The rows of IncrementalMeta, keyed as snapshot_meta keys them. */
export function incrementalMetaRows(db: Database.Database, m: IncrementalMeta, snapshotId: string): Record<string, string | number> {
  const facts = factsTableHashes(db);
  const drift = m.drift ?? { changed: 0, share: 0, df: 0, dfAbs: 0, length: 0 };
  return {
    build_mode: m.mode,
    full_build_id: m.fullBuildId ?? snapshotId,
    categories_hash: m.categoriesHash,
    reports_hash: m.reportsHash,
    facts_categories_hash: facts.categories,
    facts_reports_hash: facts.reports,
    bm25_documents: m.bm25.documents,
    bm25_length: m.bm25.totalLength,
    bm25_current_documents: m.current.documents,
    bm25_current_length: m.current.totalLength,
    vector_spill_from: m.spillFrom,
    drift_changed: drift.changed,
    drift_share: drift.share,
    drift_df: drift.df,
    drift_df_abs: drift.dfAbs,
    drift_length: drift.length,
  };
}

/** snapshot_meta: what the snapshot is and what it was built from; returns its id and time. */
function writeMeta(db: Database.Database, m: MetaInput): { builtAt: string; snapshotId: string } {
  const builtAt = new Date().toISOString();
  const snapshotId = `${m.datasetHash.slice(0, 16)}-${builtAt.replace(/[-:.]/g, '')}-${crypto.randomBytes(2).toString('hex')}`;
  const meta: Record<string, string | number> = {
    schema_version: SCHEMA_VERSION,
    snapshot_id: snapshotId,
    built_at: builtAt,
    dataset_source: m.inputDir,
    dataset_hash: m.datasetHash,
    embedder_name: m.embedder.name,
    embedder_dims: m.embedder.dims,
    language_data: m.languageData,
    count_providers: m.counts.providers,
    count_published: m.published,
    count_categories: m.counts.categories,
    count_proofs: m.counts.proofs,
    count_reports: m.counts.reports,
  };
  Object.assign(meta, incrementalMetaRows(db, m.incremental, snapshotId));
  const insertMeta = db.prepare('INSERT INTO snapshot_meta (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [key, value] of Object.entries(meta)) insertMeta.run(key, String(value));
  })();
  return { builtAt, snapshotId };
}

/** The language bridge of the snapshot the statistics come from (it is built from that snapshot's words). */
function copyBridge(db: Database.Database, frozen: FrozenStats): { sources: string; note: string } {
  db.exec(`ATTACH DATABASE '${frozen.file.replace(/'/g, "''")}' AS frozen`);
  const sql = db.prepare("SELECT sql FROM frozen.sqlite_master WHERE name = 'language_bridge'").pluck().get() as string;
  db.exec(sql);
  db.exec('INSERT INTO language_bridge SELECT * FROM frozen.language_bridge');
  db.exec('DETACH DATABASE frozen');
  const sources = frozen.meta.get('language_data') ?? '';
  return { sources, note: `language bridge copied from ${frozen.file}` };
}

function providersFileSize(inputDir: string): number {
  try {
    return fs.statSync(path.join(inputDir, DATASET_FILES.providers)).size;
  } catch {
    return 0; // the reader reports the missing file
  }
}
