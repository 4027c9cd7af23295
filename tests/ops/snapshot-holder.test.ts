/**
 * The hot-swap holder in-process, against snapshots built by the real builder:
 * a file renamed over DIRECTORY_DB is swapped in; a truncated file, a file of
 * another schema version and a non-snapshot are refused (each once) while the
 * open snapshot keeps answering; a good file after a refusal is taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotHolder, type SwapEvent } from '../../src/server/snapshot-holder.ts';
import { buildSnapshot } from '../../src/snapshot/build.ts';
import { snapshotVerifier, verifyOffThread } from '../../src/ops/verify.ts';
import { generate, workspace } from '../resilience/fixture.ts';
import { testLanguageData } from '../support/language-data.ts';

let ws = '';
let fileA = '';
let fileB = '';
const live = () => path.join(ws, 'live.db');

/** Replaces the live file by rename, as a rebuild does. */
function dropIn(source: string | Buffer): void {
  const tmp = `${live()}.next`;
  if (typeof source === 'string') fs.copyFileSync(source, tmp);
  else fs.writeFileSync(tmp, source);
  fs.renameSync(tmp, live());
}

const countPublished = (h: SnapshotHolder) =>
  (h.current().db.prepare('SELECT count(*) AS n FROM published_providers').get() as { n: number }).n;

beforeAll(async () => {
  ws = workspace('holder');
  const a = await generate(path.join(ws, 'a'), 60, 1);
  const b = await generate(path.join(ws, 'b'), 70, 2);
  fileA = path.join(ws, 'a.db');
  fileB = path.join(ws, 'b.db');
  await buildSnapshot({ languageData: testLanguageData(), inputDir: a, outFile: fileA });
  await buildSnapshot({ languageData: testLanguageData(), inputDir: b, outFile: fileB });
});

afterAll(() => {
  if (ws) fs.rmSync(ws, { recursive: true, force: true });
});

describe('SnapshotHolder', () => {
  it('swaps to a replaced file and refuses bad ones while the open snapshot keeps serving', () => {
    dropIn(fileA);
    const events: SwapEvent[] = [];
    const holder = new SnapshotHolder(live(), { verify: snapshotVerifier, log: (e) => events.push(e) });
    try {
      const a = holder.current();
      const idA = a.id;
      const publishedA = countPublished(holder);
      // A request in flight holds a lease on A (what the node server takes per request).
      const lease = holder.lease();

      dropIn(fileB);
      expect(holder.check()).toBe(true);
      const idB = holder.current().id;
      expect(idB).not.toBe(idA);
      expect(events.at(-1)).toMatchObject({ kind: 'swapped', snapshotId: idB, previousId: idA });
      expect(holder.verified()).toBe(true);
      // The leased request still sees A, open, however long it takes; new requests see B.
      expect(lease.run(() => holder.current().id)).toBe(idA);
      expect((a.db.prepare('SELECT count(*) AS n FROM published_providers').get() as { n: number }).n).toBe(publishedA);
      expect(holder.retiredCount()).toBe(1);
      // The last lease closes it: reference counting, no timer.
      lease.release();
      lease.release(); // idempotent
      expect(holder.retiredCount()).toBe(0);
      expect(() => a.db.prepare('SELECT 1').get()).toThrow(/not open/);

      const bytes = fs.readFileSync(fileA);
      dropIn(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      expect(holder.check()).toBe(false);
      expect(events.at(-1)).toMatchObject({ kind: 'refused', snapshotId: idB });
      expect(holder.current().id).toBe(idB);
      expect(countPublished(holder)).toBeGreaterThan(0);
      const refusals = events.length;
      expect(holder.check()).toBe(false); // the same bad file is not re-checked
      expect(events.length).toBe(refusals);

      const foreign = path.join(ws, 'foreign.db');
      fs.copyFileSync(fileA, foreign);
      const db = new Database(foreign);
      db.prepare("UPDATE snapshot_meta SET value = '999' WHERE key = 'schema_version'").run();
      db.close();
      dropIn(foreign);
      expect(holder.check()).toBe(false);
      expect(events.at(-1)!.reason).toMatch(/schema/i);

      dropIn(Buffer.from('not a database at all'.repeat(100)));
      expect(holder.check()).toBe(false);
      expect(holder.current().id).toBe(idB);

      dropIn(fileA);
      expect(holder.check()).toBe(true);
      expect(holder.current().id).toBe(idA);
    } finally {
      holder.close();
    }
  });

  it('refuses to start on a bad file with a clear message', () => {
    dropIn(Buffer.from('garbage'.repeat(1000)));
    const holder = new SnapshotHolder(live(), { verify: snapshotVerifier, log: () => {} });
    expect(() => holder.current()).toThrow(/not usable/);
    holder.close();
  });

  it('notices a replaced file from its timer, with no request arriving', async () => {
    dropIn(fileA);
    const holder = new SnapshotHolder(live(), { verify: snapshotVerifier, log: () => {} });
    try {
      const idA = holder.current().id;
      holder.watch();
      // The swap listener fires from the timer; current() is never called meanwhile.
      const swapped = new Promise<string>((resolve) => holder.onSwap((s) => resolve(s.id)));
      dropIn(fileB);
      const id = await Promise.race([swapped, new Promise<string>((r) => setTimeout(() => r('no swap within 10 s'), 10_000))]);
      expect(id).not.toBe('no swap within 10 s');
      expect(id).not.toBe(idA);
    } finally {
      holder.close();
    }
  });

  it('serves a first file after its structure check and reports a failed full verification afterwards', async () => {
    dropIn(fileA);
    const bad: string[] = [];
    let verified = false;
    const failingCheck = async () => {
      verified = true;
      return { ok: false as const, reason: 'integrity check failed: page 7' };
    };
    const holder = new SnapshotHolder(live(), { verify: snapshotVerifier, log: () => {}, verifyInBackground: failingCheck, onFirstFileBad: (reason) => bad.push(reason) });
    try {
      expect(countPublished(holder)).toBeGreaterThan(0); // answered before the full check reported
      expect(holder.verified()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(verified).toBe(true);
      expect(bad).toEqual([`snapshot ${live()} is not usable: integrity check failed: page 7`]);
      expect(holder.verified()).toBe(false);
    } finally {
      holder.close();
    }
    // a passing full check turns verified() (GET /healthz snapshot.verified) true once it has answered
    let pass: (v: { ok: true }) => void = () => {};
    const slowCheck = () => new Promise<{ ok: true }>((resolve) => (pass = resolve));
    const checking = new SnapshotHolder(live(), { verify: snapshotVerifier, log: () => {}, verifyInBackground: slowCheck, onFirstFileBad: () => {} });
    try {
      expect(countPublished(checking)).toBeGreaterThan(0);
      expect(checking.verified()).toBe(false);
      pass({ ok: true });
      await waitUntil(() => checking.verified());
    } finally {
      checking.close();
    }
    // a wrong schema version is still refused before anything is served
    const older = path.join(ws, 'older.db');
    fs.copyFileSync(fileA, older);
    const db = new Database(older);
    db.prepare("UPDATE snapshot_meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    dropIn(older);
    const refused = new SnapshotHolder(live(), { verify: snapshotVerifier, log: () => {}, verifyInBackground: failingCheck, onFirstFileBad: () => {} });
    expect(() => refused.current()).toThrow(/schema version 0/);
    refused.close();
  });

  it('prepares a replaced file in the background (worker-thread check, warm-up in steps) while the old one answers', async () => {
    dropIn(fileA);
    const events: SwapEvent[] = [];
    const holder = new SnapshotHolder(live(), { verify: snapshotVerifier, log: (e) => events.push(e), verifyInBackground: verifyOffThread });
    try {
      const idA = holder.current().id;
      const swapped = new Promise<string>((resolve) => holder.onSwap((s) => resolve(s.id)));
      dropIn(fileB);
      holder.checkInBackground();
      // Nothing swapped synchronously: this request still gets the open snapshot.
      expect(holder.current().id).toBe(idA);
      expect(holder.verified()).toBe(true); // no background check given: the first file was checked in full
      const idB = await Promise.race([swapped, new Promise<string>((r) => setTimeout(() => r('no swap within 10 s'), 10_000))]);
      expect(idB).not.toBe('no swap within 10 s');
      expect(idB).not.toBe(idA);
      expect(holder.current().id).toBe(idB);
      expect(events.at(-1)).toMatchObject({ kind: 'swapped', snapshotId: idB, previousId: idA });

      // A truncated file is refused by the worker's quick_check; B keeps serving.
      const bytes = fs.readFileSync(fileA);
      dropIn(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      holder.checkInBackground();
      await waitUntil(() => events.at(-1)?.kind === 'refused');
      expect(holder.current().id).toBe(idB);
      expect(countPublished(holder)).toBeGreaterThan(0);
    } finally {
      holder.close();
    }
  });
});

async function waitUntil(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within the wait');
    await new Promise((r) => setTimeout(r, 20));
  }
}
