/**
 * Which snapshot build a publish gets (npm run rebuild): incremental from the live
 * snapshot (build-incremental.ts) when the change is small, else full (build.ts).
 *
 * Limits, and why: an incremental build costs about the copy of the live file (with one
 * read of the dataset beside it) plus work in proportion to the change (the posting lists
 * of the changed providers' words, their vectors, their rows), while its statistics stay
 * those of the last full build.
 *  - CHANGE_LIMIT, 2% of the providers in one publish (at least CHANGE_FLOOR: one edit of a
 *    small directory is no full build): at 2% most posting lists of common words are
 *    rewritten anyway, and the full build's cost is within a few times;
 *  - DRIFT_LIMIT, 5%: the share of providers changed since the last full build, or the
 *    document frequencies' or lengths' relative drift (snapshot-drift.ts), whichever is
 *    largest: the frozen idf and centroids then describe at least 95% of the corpus as
 *    it is (the judged sets' nDCG@10 under drift is not measured yet).
 * A full build also when: --full; no live snapshot, or one of an older schema or built by
 * an external embedder; the taxonomy (categories.json) changed.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { buildSnapshot, type BuildOptions, type BuildResult } from './build.ts';
import { buildIncremental, discardCopy, scanAgainst, startBaseCopy } from './build-incremental.ts';
import { FullBuildNeeded } from './incremental-scan.ts';
import { metaMap } from './frozen-stats.ts';
import { driftOf } from './snapshot-drift.ts';
import { SCHEMA_VERSION } from './schema-version.ts';
import { BUILTIN_EMBEDDER_NAME } from './embedder-builtin-model.ts';

export const CHANGE_LIMIT = 0.02;
export const DRIFT_LIMIT = 0.05;
export const CHANGE_FLOOR = 10;

export interface ChosenBuild {
  result: BuildResult;
  mode: 'full' | 'incremental';
  /** an incremental build applied to the given baseCopy (renamed into place, not copied now) */
  onBaseCopy: boolean;
  /** one line: which build and why */
  line: string;
}

const percent = (x: number) => `${(100 * x).toFixed(x < 0.01 ? 3 : 1)}%`;

export interface ChoosingOptions extends BuildOptions {
  /** the live snapshot, the base of an incremental build */
  base: string | undefined;
  /** a whole copy of `base` made ahead (src/ops/spare-snapshot.ts): taken instead of copying */
  baseCopy?: string;
  forceFull?: boolean;
}

export async function buildChoosing(options: ChoosingOptions): Promise<ChosenBuild> {
  const full = async (why: string): Promise<ChosenBuild> => ({ result: await buildSnapshot(options), mode: 'full', onBaseCopy: false, line: `snapshot: full (${why})` });
  if (options.forceFull) return full('--full given');
  if (!options.base || !fs.existsSync(options.base)) return full('no live snapshot to start from');
  if (options.embedder) return full('an external embedder makes the vectors');
  const meta = readMeta(options.base);
  if (meta.get('schema_version') !== SCHEMA_VERSION) return full(`the live snapshot has schema ${meta.get('schema_version')}, not ${SCHEMA_VERSION}`);
  if (meta.get('embedder_name') !== BUILTIN_EMBEDDER_NAME) return full('the live snapshot was made by an external embedder');
  const drift = driftOf({ share: Number(meta.get('drift_share')), df: Number(meta.get('drift_df')), length: Number(meta.get('drift_length')) });
  if (drift > DRIFT_LIMIT) return full(`drift ${percent(drift)} since the last full build passes ${percent(DRIFT_LIMIT)}`);
  const providers = Number(meta.get('count_providers'));
  const limit = Math.max(CHANGE_FLOOR, Math.floor(CHANGE_LIMIT * providers));
  // the copy runs beside the scan; a full build or an error waits for it and removes it (a copy made ahead goes back)
  const copy = startBaseCopy(options.base, options.outFile, options.baseCopy);
  const scanStarted = performance.now();
  let change;
  try {
    change = await scanAgainst(options.base, options.inputDir, limit);
  } catch (err) {
    await discardCopy(copy, true);
    if (err instanceof FullBuildNeeded) return full(err.message);
    throw err;
  }
  const scanSeconds = (performance.now() - scanStarted) / 1000;
  const result = await buildIncremental({ inputDir: options.inputDir, copy, change });
  const n = result.changed.added + result.changed.edited + result.changed.removed;
  const after = readMeta(result.outFile);
  const driftNow = driftOf({ share: Number(after.get('drift_share')), df: Number(after.get('drift_df')), length: Number(after.get('drift_length')) });
  return {
    result,
    mode: 'incremental',
    onBaseCopy: copy.madeAhead !== undefined,
    line: `snapshot: incremental from ${options.base}, ${n} providers changed (${percent(n / Math.max(1, providers))}: ${result.changed.added} added, ${result.changed.edited} edited, ${result.changed.removed} gone), drift ${percent(driftNow)}; scan ${scanSeconds.toFixed(2)} s, ${copy.madeAhead ? 'the copy made after the last publish' : `copy ${result.copySeconds.toFixed(2)} s beside it`}, applied in ${(result.seconds - result.copyWaitSeconds).toFixed(2)} s`,
  };
}

function readMeta(file: string): Map<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return metaMap(db);
  } finally {
    db.close();
  }
}
