/**
 * The snapshot check used before a file is served or swapped in: the builder's
 * verifySnapshotFile (PRAGMA quick_check + the schema version this code reads),
 * adapted to the holder's verdict shape. Falls back to the holder's own quick
 * check when the builder module cannot be loaded, so a server never runs unchecked.
 */
import { verifySnapshotQuick, type SnapshotVerifier } from '../query/snapshot-holder.ts';

type Verdict = ReturnType<SnapshotVerifier>;

/** Normalizes whatever the builder's verifier returns (verdict object, boolean, or a throw). */
export function toVerdict(result: unknown): Verdict {
  if (result === true || result === undefined) return { ok: true };
  if (result === false) return { ok: false, reason: 'verification failed' };
  if (typeof result === 'object' && result !== null && 'ok' in result) {
    const r = result as { ok: boolean; reason?: unknown; message?: unknown; error?: unknown; errors?: unknown };
    if (r.ok) return { ok: true };
    const why = r.reason ?? r.message ?? r.error ?? r.errors ?? 'verification failed';
    return { ok: false, reason: typeof why === 'string' ? why : JSON.stringify(why) };
  }
  return { ok: true };
}

export async function snapshotVerifier(): Promise<SnapshotVerifier> {
  for (const candidate of ['../snapshot/verify.ts', '../snapshot/build.ts']) {
    try {
      const mod = (await import(candidate)) as { verifySnapshotFile?: (file: string) => unknown };
      const builderVerify = mod.verifySnapshotFile;
      if (typeof builderVerify !== 'function') continue;
      return (file) => {
        try {
          const result = builderVerify(file);
          if (result instanceof Promise) return verifySnapshotQuick(file); // an async verifier cannot gate a sync swap
          return toVerdict(result);
        } catch (err) {
          return { ok: false, reason: (err as Error).message };
        }
      };
    } catch {
      // module not present (yet): try the next one
    }
  }
  return verifySnapshotQuick;
}
