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
  /** published providers of the new snapshot */
  published: number;
  categoriesChanged: boolean;
  reportsChanged: boolean;
}

const FACT_COLUMNS = (t: string) => `${t}.slug, ${t}.company_name, ${t}.category_slugs, ${t}.city_slug, ${t}.hash`;
type FactRow = [string, string, string, string | null, string];
const factOf = ([slug, companyName, categorySlugs, citySlug, hash]: FactRow): ProviderFacts => ({ slug, companyName, categorySlugs: JSON.parse(categorySlugs) as string[], citySlug, hash });

// Both tables are keyed by slug: each query walks one and looks the other up, in SQLite.
const CHANGED_SQL = `SELECT ${FACT_COLUMNS('n')}, ${FACT_COLUMNS('o')} FROM main.published_facts n LEFT JOIN old.published_facts o ON o.slug = n.slug WHERE o.hash IS NOT n.hash`;
const REMOVED_SQL = `SELECT ${FACT_COLUMNS('o')} FROM old.published_facts o WHERE NOT EXISTS (SELECT 1 FROM main.published_facts n WHERE n.slug = o.slug)`;
const HASHES_SQL = (schema: string) => `SELECT key, value FROM ${schema}.snapshot_meta WHERE key IN ('facts_categories_hash', 'facts_reports_hash')`;

const hasFacts = (db: Database.Database, schema: string) => db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE name = 'published_facts'`).get() !== undefined;

function factHashes(db: Database.Database, schema: string): { categories: string; reports: string } {
  const meta = new Map((db.prepare(HASHES_SQL(schema)).raw().all() as [string, string][]).map(([k, v]) => [k, v]));
  return { categories: meta.get('facts_categories_hash') ?? '', reports: meta.get('facts_reports_hash') ?? '' };
}

/**
 * Compares the reader-visible facts of two snapshot files: their published_facts
 * tables and the two hashes in snapshot_meta, which the build computes
 * (src/snapshot/published-facts.ts). The comparison runs in SQLite over the two
 * files attached side by side, so only the changed providers reach JavaScript (a
 * million unchanged ones cost about a second, not a map of a million objects).
 * A snapshot older than schema 12 has no facts: every provider of the other counts as added.
 */
export function diffSnapshots(beforeFile: string | undefined, afterFile: string): SnapshotDiff {
  const db = new Database(afterFile, { readonly: true, fileMustExist: true });
  try {
    const diff: SnapshotDiff = { added: [], removed: [], updated: [], unchanged: 0, published: 0, categoriesChanged: true, reportsChanged: true };
    if (!hasFacts(db, 'main')) throw new Error(`${afterFile} holds no published_facts table: it was not built by this code`);
    diff.published = db.prepare('SELECT count(*) FROM main.published_facts').pluck().get() as number;
    const after = factHashes(db, 'main');
    if (beforeFile === undefined) {
      diff.added = (db.prepare(`SELECT ${FACT_COLUMNS('n')} FROM main.published_facts n`).raw().all() as FactRow[]).map(factOf);
      return diff;
    }
    db.prepare('ATTACH DATABASE ? AS old').run(beforeFile);
    if (!hasFacts(db, 'old')) {
      diff.added = (db.prepare(`SELECT ${FACT_COLUMNS('n')} FROM main.published_facts n`).raw().all() as FactRow[]).map(factOf);
      return diff;
    }
    for (const row of db.prepare(CHANGED_SQL).raw().iterate() as IterableIterator<[...FactRow, ...(FactRow | [null, null, null, null, null])]>) {
      const next = factOf(row.slice(0, 5) as FactRow);
      if (row[5] === null) diff.added.push(next);
      else diff.updated.push({ before: factOf(row.slice(5) as FactRow), after: next });
    }
    diff.removed = (db.prepare(REMOVED_SQL).raw().all() as FactRow[]).map(factOf);
    diff.unchanged = diff.published - diff.added.length - diff.updated.length;
    const before = factHashes(db, 'old');
    diff.categoriesChanged = before.categories !== after.categories;
    diff.reportsChanged = before.reports !== after.reports;
    return diff;
  } finally {
    db.close();
  }
}

/** Every provider fact whose pages changed (old and new side of an update). */
export function touchedProviders(diff: SnapshotDiff): ProviderFacts[] {
  return [...diff.added, ...diff.removed, ...diff.updated.flatMap((u) => [u.before, u.after])];
}
