/**
 * The snapshot file of a build: written as a temporary file next to the target
 * with fast settings (no journal to speak of, no fsync per commit, a large cache),
 * then made readable as it will be read (no journal, no WAL), synced and renamed
 * over the target only when it is complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { CREATE_FTS_SQL, SCHEMA_STATEMENTS } from './snapshot-schema.ts';

/** The temporary file, with the tables (not yet the indexes) and the FTS table created. */
export function openBuildFile(tmpFile: string): Database.Database {
  const db = new Database(tmpFile);
  sqliteVec.load(db);
  // better-sqlite3 runs SQLite in defensive mode, which refuses journal_mode=OFF. The
  // journal stays on disk (PERSIST: created once, never fsynced with synchronous=OFF),
  // so its size (300 MB at 1M providers) never counts against the memory budget.
  db.pragma('journal_mode = PERSIST');
  db.pragma('synchronous = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -262144'); // 256 MiB: index builds sort in memory, well under the 2 GB budget
  db.pragma('temp_store = FILE');
  // better-sqlite3 turns foreign keys on, and SQLite then looks up the parent row of
  // every child row written: the reader (dataset-reader.ts) has already checked every
  // reference, and at 1,000,000 providers the lookups cost 26 of the 32 s provider_tags
  // took to write (build-generated.test.ts runs PRAGMA foreign_key_check on a build).
  db.pragma('foreign_keys = OFF');
  for (const sql of SCHEMA_STATEMENTS.tables) db.exec(sql);
  db.exec(CREATE_FTS_SQL);
  // FTS5 flushes its pending terms to a new segment every 1 MB by default; 16 MB means
  // fewer segments to write and merge (insert measured ~35% cheaper). Kept in
  // fts_providers_config; readers never write, so it changes nothing for them.
  db.exec("INSERT INTO fts_providers(fts_providers, rank) VALUES ('hashsize', 16777216)");
  // No merging while loading: the build ends with 'optimize', which merges every segment
  // into one anyway (build.ts), so segments merged on the way are merged twice. 816,000
  // providers' texts went in 10-20% faster (FTS5 caps crisismerge at 2,000 segments).
  db.exec("INSERT INTO fts_providers(fts_providers, rank) VALUES ('automerge', 0)");
  db.exec("INSERT INTO fts_providers(fts_providers, rank) VALUES ('crisismerge', 2000)");
  return db;
}

/** Statistics for the query planner, then the settings readers need; closes the connection. */
export function closeBuildFile(db: Database.Database): void {
  // Approximate statistics (a bounded sample per index) keep ANALYZE from reading
  // every index of a million-row file; the schema avoids indexes they would misjudge.
  db.pragma('analysis_limit = 2000');
  db.exec('ANALYZE');
  db.pragma('optimize');
  // Readers open the file read-only: it must not need a journal or WAL to be read.
  db.pragma('locking_mode = NORMAL');
  db.pragma('journal_mode = DELETE');
  db.close();
}

/** Syncs the finished temporary file and renames it over the target. */
export function moveIntoPlace(tmpFile: string, outFile: string): void {
  fs.rmSync(`${tmpFile}-journal`, { force: true }); // the persisted (now empty) journal
  syncFile(tmpFile);
  fs.renameSync(tmpFile, outFile);
  syncDirectory(path.dirname(outFile));
}

export function removeTemp(tmpFile: string): void {
  for (const file of [tmpFile, `${tmpFile}-journal`, `${tmpFile}-wal`, `${tmpFile}-shm`]) fs.rmSync(file, { force: true });
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes the rename durable; some platforms cannot open a directory, which is fine. */
function syncDirectory(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // not supported here
  }
}
