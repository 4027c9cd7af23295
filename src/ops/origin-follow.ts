/**
 * A node that follows a release origin (RELEASE_ORIGIN, docs/operations.md "Many
 * nodes"): every RELEASE_POLL_INTERVAL_MS it asks for current.json with
 * If-None-Match (a 304 costs nothing), and when the origin announces a release
 * other than the one it serves, installs it (origin-install.ts): the site's files
 * and the snapshot fetched into a release folder of its own, checked, and made
 * live by the same renames as `npm run rebuild`; the server swaps the snapshot as
 * it swaps any renamed file, between requests.
 *
 * What it does not get, it does not serve: a release whose files are not what the
 * origin announced, or whose snapshot fails its check, is refused (and not fetched
 * again while the origin announces it), a fetch that fails midway is resumed at
 * the next poll, and an origin that cannot be reached changes nothing. In each
 * case the node keeps serving the release it has, says so in its log (once, not
 * at every poll) and in GET /healthz `release` (src/server/release-status.ts).
 *
 * At start (`catchUp`, before the server listens) the node installs what the
 * origin announces, so a node started after a publish serves the new release
 * from its first request; a node with no release of its own waits for one.
 */
import fs from 'node:fs';
import type { Logger } from 'pino';
import type { ReleaseStatus } from '../server/release-status.ts';
import { fetchManifest, OriginRefusal } from './origin-fetch.ts';
import { installRelease, type InstallOptions } from './origin-install.ts';
import { MANIFEST, OriginManifestSchema, type OriginManifest } from './origin-layout.ts';
import { liveReleaseId } from './releases.ts';
import { withLock } from './release-lock.ts';

export interface FollowerOptions extends Omit<InstallOptions, 'progress'> {
  pollMs: number;
  status: ReleaseStatus;
  logger: Logger;
}

/** A manifest names one release's exact files: refused once, not fetched again while announced. */
const refusalKey = (m: OriginManifest) => `${m.release}|${m.snapshot.sha256}|${m.files.sha256}`;

export class OriginFollower {
  private etag: string | undefined;
  private manifest: OriginManifest | undefined;
  private readonly refused = new Set<string>();
  /** the reason last logged, so a repeated failure is logged once */
  private logged: string | undefined;
  private unreachableSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  private readonly o: FollowerOptions;
  constructor(options: FollowerOptions) {
    this.o = options;
    // The release the history names, if its snapshot is live: one whose file is gone is installed again.
    options.status.installed(fs.existsSync(options.paths.liveSnapshot) ? (liveReleaseId(options.paths) ?? null) : null);
  }

  /**
   * One poll before the node serves, so it starts on the release the origin announces.
   * Whatever that poll found (installed, unreachable, refused), a node with a snapshot
   * then serves it; one without asks again every poll interval until it has one.
   */
  async catchUp(): Promise<void> {
    for (;;) {
      await this.poll();
      if (fs.existsSync(this.o.paths.liveSnapshot)) return;
      this.logOnce('waiting', () => this.o.logger.warn({ origin: this.o.originUrl }, 'no release to serve yet; waiting for the release origin'));
      await new Promise((resolve) => setTimeout(resolve, this.o.pollMs));
    }
  }

  /** Polls every interval until stop(); a poll starts when the last one has finished. */
  start(): void {
    const tick = async () => {
      if (this.stopped) return;
      await this.poll();
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.o.pollMs).unref();
    };
    this.timer = setTimeout(() => void tick(), this.o.pollMs).unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One look at the origin, and the install of what it announces when that is new. */
  async poll(): Promise<void> {
    const { status, logger } = this.o;
    const manifest = await this.readManifest();
    if (!manifest) return;
    status.answered(manifest.release);
    if (manifest.release === status.servingRelease() || this.refused.has(refusalKey(manifest))) return;
    const serving = status.servingRelease();
    try {
      const started = performance.now();
      const lock = { task: `install of release ${manifest.release}`, log: (msg: string) => logger.info({ release: manifest.release }, msg) };
      const installed = await withLock(this.o.paths.releasesDir, lock, () =>
        installRelease(manifest, {
          ...this.o,
          progress: (done, total, bytes) => logger.info({ release: manifest.release, files: done, of: total, bytes }, 'fetching the release'),
        }),
      );
      status.installed(manifest.release);
      status.answered(manifest.release);
      this.logged = undefined;
      logger.info({ release: manifest.release, previous: serving, snapshotId: manifest.snapshot.id, ...installed, ms: Math.round(performance.now() - started) }, 'release installed');
    } catch (err) {
      const reason = (err as Error).message;
      if (err instanceof OriginRefusal) {
        this.refused.add(refusalKey(manifest));
        status.refuse(manifest.release, reason);
        logger.warn({ release: manifest.release, reason, serving }, 'release refused; still serving the release it has');
      } else {
        status.failed(reason);
        this.logOnce(reason, () => logger.warn({ release: manifest.release, reason, serving }, 'release fetch failed; the next poll goes on from there'));
      }
    }
  }

  /** The manifest the origin announces now (the last one on a 304), or undefined when it cannot be had. */
  private async readManifest(): Promise<OriginManifest | undefined> {
    const { status, logger, originUrl } = this.o;
    let answer;
    try {
      answer = await fetchManifest(`${originUrl}/${MANIFEST}`, this.etag);
    } catch (err) {
      const reason = (err as Error).message;
      status.unreachable(reason);
      this.unreachableSince ??= Date.now();
      this.logOnce(`unreachable ${reason}`, () => logger.warn({ origin: originUrl, reason, serving: status.servingRelease() }, 'release origin unreachable; still serving the release it has'));
      return undefined;
    }
    if (this.unreachableSince !== undefined) {
      logger.info({ origin: originUrl, unreachableSeconds: Math.round((Date.now() - this.unreachableSince) / 1000) }, 'release origin reachable again');
      this.unreachableSince = undefined;
      this.logged = undefined;
    }
    if (answer === 'unchanged' && this.manifest) return this.manifest;
    if (answer === 'unchanged') return undefined; // a 304 to no ETag of ours: a broken cache in between; ask again next time
    const parsed = parseManifest(answer.text);
    if (!parsed.ok) {
      this.etag = undefined;
      status.failed(parsed.reason);
      this.logOnce(parsed.reason, () => logger.warn({ origin: originUrl, reason: parsed.reason }, 'release manifest unreadable; still serving the release it has'));
      return undefined;
    }
    if (parsed.manifest.release !== this.manifest?.release) logger.info({ release: parsed.manifest.release, previous: parsed.manifest.previous }, 'release announced');
    this.etag = answer.etag;
    this.manifest = parsed.manifest;
    return parsed.manifest;
  }

  private logOnce(reason: string, log: () => void): void {
    if (this.logged === reason) return;
    this.logged = reason;
    log();
  }
}

function parseManifest(text: string): { ok: true; manifest: OriginManifest } | { ok: false; reason: string } {
  try {
    const parsed = OriginManifestSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { ok: true, manifest: parsed.data };
    return { ok: false, reason: `${MANIFEST}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  } catch (err) {
    return { ok: false, reason: `${MANIFEST}: ${(err as Error).message}` };
  }
}
