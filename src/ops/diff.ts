/**
 * What changed between two snapshots, as readers see it: published providers
 * added, removed or updated (any public field, category link, tag or public
 * proof), and whether the taxonomy or the reports changed. Dashboard-only edits
 * (moderation notes, internal status) and unpublished records change nothing a
 * reader can see, so they are not changes here.
 */
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

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

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

// rowid is an internal key that shifts when records are added; it is not public data.
const PROVIDERS_SQL = 'SELECT * FROM published_providers ORDER BY slug';
const CATEGORY_LINKS_SQL = `
  SELECT pc.provider_rowid AS rowid, c.slug AS slug, parent.slug AS parentSlug
  FROM provider_categories pc
  JOIN categories c ON c.id = pc.category_id
  LEFT JOIN categories parent ON parent.id = c.parent_id
  ORDER BY pc.provider_rowid, pc.position`;
const TAGS_SQL = 'SELECT provider_rowid AS rowid, kind, value FROM provider_tags ORDER BY provider_rowid, kind, value';
const PROOFS_SQL = `SELECT provider_rowid AS rowid, id, title, kind, url, created_at FROM public_proofs ORDER BY provider_rowid, id`;

function groupByRowid<T extends { rowid: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.rowid);
    if (list) list.push(r);
    else out.set(r.rowid, [r]);
  }
  return out;
}

const stripRowid = <T extends { rowid: number }>(rows: T[] | undefined) => (rows ?? []).map(({ rowid: _r, ...rest }) => rest);

/** Reads the reader-visible facts of a snapshot file. */
export function readSnapshotFacts(file: string): SnapshotFacts {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    sqliteVec.load(db); // vec0 tables must be loadable for the schema to open cleanly
    const links = groupByRowid(db.prepare(CATEGORY_LINKS_SQL).all() as { rowid: number; slug: string; parentSlug: string | null }[]);
    const tags = groupByRowid(db.prepare(TAGS_SQL).all() as { rowid: number }[]);
    const proofs = groupByRowid(db.prepare(PROOFS_SQL).all() as { rowid: number }[]);
    const providers = new Map<string, ProviderFacts>();
    for (const row of db.prepare(PROVIDERS_SQL).all() as ({ rowid: number; slug: string; company_name: string; city_slug: string | null } & Record<string, unknown>)[]) {
      const { rowid, ...publicRow } = row;
      const cats = links.get(rowid) ?? [];
      const categorySlugs = [...new Set(cats.flatMap((c) => (c.parentSlug ? [c.slug, c.parentSlug] : [c.slug])))];
      const hash = sha(JSON.stringify([publicRow, stripRowid(cats), stripRowid(tags.get(rowid)), stripRowid(proofs.get(rowid))]));
      providers.set(row.slug, { slug: row.slug, companyName: row.company_name, categorySlugs, citySlug: row.city_slug, hash });
    }
    return {
      providers,
      categoriesHash: sha(JSON.stringify(db.prepare('SELECT * FROM categories ORDER BY id').all())),
      reportsHash: sha(JSON.stringify(db.prepare('SELECT * FROM reports ORDER BY slug').all())),
    };
  } finally {
    db.close();
  }
}

const EMPTY: SnapshotFacts = { providers: new Map(), categoriesHash: '', reportsHash: '' };

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
