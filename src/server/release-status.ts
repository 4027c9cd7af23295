/**
 * What a node following a release origin (RELEASE_ORIGIN, src/ops/origin-follow.ts)
 * knows about its release, for GET /healthz `release`: the release it serves, the
 * one the origin announces, and since when it has not been confirmed current. A
 * node is behind from the first poll that did not confirm it current (the origin
 * announced another release, refused or still arriving, or the origin could not
 * be reached: then it cannot know) until a poll finds it serving what the origin
 * announces.
 */
export interface ReleaseStatusBody {
  /** the release this node serves (its site and snapshot), null before the first one */
  serving: string | null;
  /** the release the origin announced at the last answer, null before one */
  announced: string | null;
  /** ISO time since which the node has not been confirmed current; null when it is */
  behindSince: string | null;
  origin: {
    url: string;
    reachable: boolean;
    /** the last poll, answered or not */
    lastCheckAt: string | null;
    /** why the last poll, fetch or install failed; null after one that worked */
    lastError: string | null;
  };
  /** the last release refused (its files were not what the origin announced, or its snapshot failed its check) */
  refused: { release: string; reason: string } | null;
}

export class ReleaseStatus {
  private serving: string | null = null;
  private announced: string | null = null;
  private behindSince: number | null = null;
  private reachable = false;
  private lastCheckAt: number | null = null;
  private lastError: string | null = null;
  private refused: ReleaseStatusBody['refused'] = null;

  readonly originUrl: string;
  constructor(originUrl: string) {
    this.originUrl = originUrl;
  }

  servingRelease(): string | null {
    return this.serving;
  }

  /** The release now live on this node. */
  installed(release: string | null): void {
    this.serving = release;
  }

  /** The origin answered and announces `release`; current when that is the one served. */
  answered(release: string, now = Date.now()): void {
    this.lastCheckAt = now;
    this.reachable = true;
    this.announced = release;
    if (release === this.serving) {
      this.behindSince = null;
      this.lastError = null;
    } else this.behindSince ??= now;
  }

  /** The origin could not be reached. */
  unreachable(reason: string, now = Date.now()): void {
    this.lastCheckAt = now;
    this.reachable = false;
    this.lastError = reason;
    this.behindSince ??= now;
  }

  /** Reading the manifest, or fetching or installing the announced release, failed; the next poll tries again. */
  failed(reason: string, now = Date.now()): void {
    this.lastError = reason;
    this.behindSince ??= now;
  }

  refuse(release: string, reason: string): void {
    this.refused = { release, reason };
    this.lastError = reason;
  }

  isBehind(): boolean {
    return this.behindSince !== null;
  }

  body(): ReleaseStatusBody {
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return {
      serving: this.serving,
      announced: this.announced,
      behindSince: iso(this.behindSince),
      origin: { url: this.originUrl, reachable: this.reachable, lastCheckAt: iso(this.lastCheckAt), lastError: this.lastError },
      refused: this.refused,
    };
  }
}
