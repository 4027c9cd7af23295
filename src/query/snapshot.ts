/**
 * Every reader reaches the snapshot through one Snapshot object: the read-only
 * connection, its prepared statements, the query embedder and per-snapshot caches.
 * The object is replaced as a whole when a new snapshot file appears (see
 * src/server/snapshot-holder.ts), so no response ever mixes two snapshots: a
 * handler takes the current Snapshot once and uses only it.
 */
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { EmbedderConfig } from '../env.ts';
import { metaOf, type SnapshotFileMeta } from '../snapshot/snapshot-file.ts';
import { ListCaches } from './list-caches.ts';

export type SnapshotMeta = SnapshotFileMeta;

export class Snapshot {
  readonly db: Database.Database;
  readonly meta: SnapshotMeta;
  private readonly statements = new Map<string, Statement>();
  private readonly memos = new Map<string, unknown>();

  readonly file: string;
  /** The query embedder the settings name (src/search/query-embedder.ts opens it once per snapshot). */
  readonly embedder: EmbedderConfig;
  /**
   * Threads of this process that search this file (the main thread plus
   * SEARCH_THREADS, src/server/search-threads.ts). Above 1, the vector index and the
   * published columns are built in shared memory, once, and the list caches share
   * their lists between the threads (list-caches.ts), so the process holds what one
   * thread alone would.
   */
  readonly searchingThreads: number;
  /** The byte-bounded caches of lists (posting lists, group lists, filter sets). */
  readonly listCaches: ListCaches;
  private readonly closeListeners: (() => void)[] = [];
  constructor(file: string, embedder: EmbedderConfig = { kind: 'builtin' }, searchingThreads = 1) {
    this.file = file;
    this.embedder = embedder;
    this.searchingThreads = searchingThreads;
    this.listCaches = new ListCaches(searchingThreads > 1);
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    sqliteVec.load(this.db);
    this.db.pragma('query_only = ON');
    // 64 MB of page cache per process, split between the search threads' connections (one budget,
    // not one per thread): search reads each list once into its list caches, and a page's 20 rows
    // at random.
    this.db.pragma(`cache_size = -${Math.floor(65536 / searchingThreads)}`);
    // No memory map: search reads its lists once into its own arrays, and mapped
    // pages of a multi-GB file count as the server's resident memory (issue 11).
    this.db.pragma('mmap_size = 0');
    // The file never changes under this connection (a new snapshot is a new file,
    // renamed into place, and gets a new Snapshot), so the shared lock is taken once
    // and kept. In the default mode every statement took and dropped it and checked
    // the file for a hot journal and for changes: about 8 system calls, 8 us per
    // statement on the benchmark machine, as much as reading the page's 20 rows.
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.meta = metaOf(this.db);
  }

  get id(): string {
    return this.meta.snapshotId;
  }

  /** A prepared statement, compiled once per snapshot. SQL lives beside the module that runs it. */
  prepare<P extends unknown[] | {} = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt as unknown as Statement<P, R>;
  }

  /** A value computed once per snapshot (category tree, programmatic set, ...). */
  memo<T>(key: string, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = compute();
    this.memos.set(key, value);
    return value;
  }

  /** Runs fn when this snapshot closes (the search threads then close their own connection to the file). */
  onClose(fn: () => void): void {
    this.closeListeners.push(fn);
  }

  close(): void {
    if (this.db.open) for (const fn of this.closeListeners.splice(0)) fn();
    this.statements.clear();
    this.memos.clear();
    if (this.db.open) this.db.close();
  }
}

