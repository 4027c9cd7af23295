/**
 * The API fixture's snapshot (tests/http/fixture.ts), built once per test file
 * and opened as a Snapshot for in-process query tests; removed afterwards.
 * Call at the top level of a test file: it registers the beforeAll/afterAll hooks.
 */
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { Snapshot } from '../../src/query/snapshot.ts';
import { buildFixture, type Fixture } from '../http/fixture.ts';

export interface OpenFixture {
  fixture: Fixture;
  snapshot: Snapshot;
}

export function useFixtureSnapshot(): OpenFixture {
  const open = {} as OpenFixture;
  beforeAll(async () => {
    open.fixture = await buildFixture();
    open.snapshot = new Snapshot(open.fixture.dbFile);
  });
  afterAll(() => {
    open.snapshot?.close();
    if (open.fixture) fs.rmSync(open.fixture.dir, { recursive: true, force: true });
  });
  return open;
}
