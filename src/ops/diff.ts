/**
 * What changed between two snapshots, as readers see it: published providers
 * added, removed or updated (any public field, category link, tag or public
 * proof), and whether the taxonomy or the reports changed. Dashboard-only edits
 * (moderation notes, internal status) and unpublished records change nothing a
 * reader can see, so they are not changes here.
 */
import Database from 'better-sqlite3';

export interface ProviderFacts {
  slug: string;
  companyName: string;
  /** Slugs of every linked category and of their parents. */
  categorySlugs: string[];
  citySlug: string | null;
  hash: string;
}

export interface SnapshotDiff {
  added: ProviderFacts[];
  removed: ProviderFacts[];
  updated: { before: ProviderFacts; after: ProviderFacts }[];
  unchanged: number;
  categoriesChanged: boolean;
  reportsChanged: boolean;
}

export interface SnapshotFacts {
  providers: Map<string, ProviderFacts>;
  categoriesHash: string;
  reportsHash: string;
}

const EMPTY: SnapshotFacts = { providers: new Map(), categoriesHash: '', reportsHash: '' };

/**
 * Reads the reader-visible facts of a snapshot file: its published_facts table and the
 * two hashes in snapshot_meta, which the build computes (src/snapshot/published-facts.ts).
 */
export function readSnapshotFacts(file: string): SnapshotFacts {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // A snapshot older than schema 12 has no facts to compare: every provider counts as added (a full render).
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'published_facts'").get()) return EMPTY;
    const providers = new Map<string, ProviderFacts>();
    const rows = db.prepare('SELECT slug, company_name, category_slugs, city_slug, hash FROM published_facts ORDER BY slug').raw().iterate() as IterableIterator<[string, string, string, string | null, string]>;
    for (const [slug, companyName, categorySlugs, citySlug, hash] of rows) {
      providers.set(slug, { slug, companyName, categorySlugs: JSON.parse(categorySlugs) as string[], citySlug, hash });
    }
    const meta = db.prepare("SELECT key, value FROM snapshot_meta WHERE key IN ('facts_categories_hash', 'facts_reports_hash')").all() as { key: string; value: string }[];
    const hashOf = (key: string) => meta.find((m) => m.key === key)?.value ?? '';
    return { providers, categoriesHash: hashOf('facts_categories_hash'), reportsHash: hashOf('facts_reports_hash') };
  } finally {
    db.close();
  }
}

export function diffFacts(before: SnapshotFacts | undefined, after: SnapshotFacts): SnapshotDiff {
  const old = before ?? EMPTY;
  const diff: SnapshotDiff = {
    added: [],
    removed: [],
    updated: [],
    unchanged: 0,
    categoriesChanged: old.categoriesHash !== after.categoriesHash,
    reportsChanged: old.reportsHash !== after.reportsHash,
  };
  for (const [slug, next] of after.providers) {
    const prev = old.providers.get(slug);
    if (!prev) diff.added.push(next);
    else if (prev.hash !== next.hash) diff.updated.push({ before: prev, after: next });
    else diff.unchanged++;
  }
  for (const [slug, prev] of old.providers) if (!after.providers.has(slug)) diff.removed.push(prev);
  return diff;
}

export function diffSnapshots(beforeFile: string | undefined, afterFile: string): SnapshotDiff {
  return diffFacts(beforeFile ? readSnapshotFacts(beforeFile) : undefined, readSnapshotFacts(afterFile));
}

/** Every provider fact whose pages changed (old and new side of an update). */
export function touchedProviders(diff: SnapshotDiff): ProviderFacts[] {
  return [...diff.added, ...diff.removed, ...diff.updated.flatMap((u) => [u.before, u.after])];
}
