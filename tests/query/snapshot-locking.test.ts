/**
 * A Snapshot's connection takes the file's shared lock at its first read and
 * keeps it (locking_mode EXCLUSIVE: no lock, hot-journal or change check per
 * statement). Other processes reading the same file (SERVE_PROCESSES, the
 * verification worker) must still read it; what the kept lock refuses is a
 * write in place, which a served snapshot never gets (a new one is renamed in).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useFixtureSnapshot } from '../support/fixture-snapshot.ts';

const open = useFixtureSnapshot();

/** Runs a snippet in another node process with better-sqlite3; its stdout, or the error's stderr. */
function inOtherProcess(code: string, file: string): string {
  try {
    return execFileSync(process.execPath, ['--input-type=module', '-e', code, file], { encoding: 'utf8', cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    return `failed: ${(err as { stderr?: string }).stderr ?? String(err)}`;
  }
}

describe('snapshot connection locking', () => {
  it('keeps its shared lock: another process reads the file, a write in place is refused', () => {
    const { snapshot } = open;
    expect(snapshot.db.pragma('locking_mode', { simple: true })).toBe('exclusive');
    const published = snapshot.db.prepare('SELECT count(*) FROM published_providers').pluck().get() as number;
    expect(published).toBeGreaterThan(0);

    const read = inOtherProcess(
      `import Database from 'better-sqlite3';
       const db = new Database(process.argv[1], { readonly: true, fileMustExist: true });
       console.log(db.prepare('SELECT count(*) FROM published_providers').pluck().get());`,
      snapshot.file,
    );
    expect(read).toBe(String(published));

    const write = inOtherProcess(
      `import Database from 'better-sqlite3';
       const db = new Database(process.argv[1], { fileMustExist: true, timeout: 0 });
       db.prepare("UPDATE snapshot_meta SET value = value WHERE key = 'schema_version'").run();
       console.log('written');`,
      snapshot.file,
    );
    expect(write).toMatch(/SQLITE_BUSY|database is locked/);

    // and this connection still answers after the other process gave up
    expect(snapshot.db.prepare('SELECT count(*) FROM published_providers').pluck().get()).toBe(published);
  });
});
