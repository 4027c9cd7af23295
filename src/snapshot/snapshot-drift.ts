/**
 * How far a snapshot built with frozen statistics (frozen-stats.ts) has drifted from
 * what a full build would compute, recorded in snapshot_meta (drift_*) and read by the
 * chooser (build-choice.ts):
 *   changed  providers changed since the last full build (one edited twice counts twice)
 *   share    changed / providers
 *   df       sum over terms of |df now - df frozen| / sum of the frozen df
 *   length   |average document length now - frozen| / frozen
 */
import type Database from 'better-sqlite3';
import { averageLength } from './search-postings.ts';

export interface Drift {
  changed: number;
  share: number;
  df: number;
  /** the df figure's numerator, kept so an incremental build updates it term by term */
  dfAbs: number;
  length: number;
}

type Counts = { documents: number; totalLength: number };

/** `dfAbs` given: as an incremental build kept it; else computed over search_postings and bm25_frozen_df. */
export function driftFigures(db: Database.Database, frozen: Counts, current: Counts, changed: number, providers: number, dfAbs?: number): Drift {
  const abs =
    dfAbs ??
    ((db.prepare('SELECT coalesce(sum(abs(p.df - coalesce(f.df, 0))), 0) FROM search_postings p LEFT JOIN bm25_frozen_df f USING (term)').pluck().get() as number) +
      (db.prepare('SELECT coalesce(sum(f.df), 0) FROM bm25_frozen_df f WHERE NOT EXISTS (SELECT 1 FROM search_postings p WHERE p.term = f.term)').pluck().get() as number));
  const total = db.prepare('SELECT coalesce(sum(df), 0) FROM bm25_frozen_df').pluck().get() as number;
  const frozenAvg = averageLength(frozen);
  return {
    changed,
    share: providers ? changed / providers : 0,
    df: total ? abs / total : 0,
    dfAbs: abs,
    length: Math.abs(averageLength(current) - frozenAvg) / frozenAvg,
  };
}

/** The largest of the three figures: what the chooser compares with its limit. */
export const driftOf = (d: Pick<Drift, 'share' | 'df' | 'length'>): number => Math.max(d.share, d.df, d.length);
