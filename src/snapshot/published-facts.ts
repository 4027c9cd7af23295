/**
 * published_facts (schema.sql): what a reader sees of each published provider, one
 * row a provider, computed by the build (full: all of them; incremental: the
 * providers it changed), so that the rebuild's diff (src/ops/diff.ts) reads two
 * small tables instead of every provider, category link, tag and proof of two
 * snapshots. The hash covers every public column (rowid aside: an internal key), the
 * category links in order, the tags and the public proofs.
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';

const sha = (text: string) => crypto.hash('sha256', text, 'hex');

/**
 * `change` null: every published provider (the table is empty); else the rows of `formerSlugs`
 * (their slugs before the change: the table's key) are replaced by those of `rowids`.
 */
export function writePublishedFacts(db: Database.Database, change: { rowids: readonly number[]; formerSlugs: readonly string[] } | null): void {
  const rowids = change?.rowids ?? null;
  const only = rowids === null ? '' : 'AND x.rowid IN (SELECT value FROM json_each(:rowids))';
  const where = (column: string) => (rowids === null ? '' : `WHERE ${column} IN (SELECT value FROM json_each(:rowids))`);
  const params = rowids === null ? {} : { rowids: JSON.stringify(rowids) };
  const providers = db.prepare(`SELECT * FROM published_providers x WHERE 1 ${only} ORDER BY rowid`);
  const links = db.prepare(`
    SELECT pc.provider_rowid AS rowid, c.slug AS slug, parent.slug AS parentSlug
    FROM provider_categories pc JOIN categories c ON c.id = pc.category_id LEFT JOIN categories parent ON parent.id = c.parent_id
    ${where('pc.provider_rowid')} ORDER BY pc.provider_rowid, pc.position`);
  const tags = db.prepare(`SELECT provider_rowid AS rowid, kind, value FROM provider_tags ${where('provider_rowid')} ORDER BY provider_rowid, kind, value`);
  const proofs = db.prepare(`SELECT provider_rowid AS rowid, id, title, kind, url, created_at FROM public_proofs ${where('provider_rowid')} ORDER BY provider_rowid, id`);
  type Link = { rowid: number; slug: string; parentSlug: string | null };
  const iterators = [links, tags, proofs].map((s) => s.iterate(params) as IterableIterator<Link>);
  const [linkRows, tagRows, proofRows] = iterators.map((it) => grouped(it)) as [(rowid: number) => Link[], (rowid: number) => Link[], (rowid: number) => Link[]];
  const out: unknown[][] = [];
  for (const row of providers.iterate(params) as IterableIterator<{ rowid: number; slug: string; company_name: string; city_slug: string | null }>) {
    const { rowid, ...publicRow } = row;
    const cats = linkRows(rowid);
    const categorySlugs = [...new Set(cats.flatMap((c) => (c.parentSlug ? [c.slug, c.parentSlug] : [c.slug])))];
    const hash = sha(JSON.stringify([publicRow, strip(cats), strip(tagRows(rowid)), strip(proofRows(rowid))]));
    out.push([row.slug, rowid, row.company_name, JSON.stringify(categorySlugs), row.city_slug, hash]);
  }
  for (const it of iterators) it.return?.();
  const insert = db.prepare('INSERT INTO published_facts (slug, provider_rowid, company_name, category_slugs, city_slug, hash) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    if (change) db.prepare('DELETE FROM published_facts WHERE slug IN (SELECT value FROM json_each(?))').run(JSON.stringify(change.formerSlugs));
    for (const r of out) insert.run(...r);
  })();
}

/** Rows grouped by rowid from an iterator in rowid order, asked for in ascending rowid order. */
function grouped<T extends { rowid: number }>(rows: IterableIterator<T>): (rowid: number) => T[] {
  let pending = rows.next();
  return (rowid) => {
    const out: T[] = [];
    while (!pending.done && pending.value.rowid < rowid) pending = rows.next();
    while (!pending.done && pending.value.rowid === rowid) {
      out.push(pending.value);
      pending = rows.next();
    }
    return out;
  };
}

const strip = <T extends { rowid: number }>(rows: T[]) => rows.map(({ rowid: _r, ...rest }) => rest);

/** The hashes the diff compares the taxonomy and the reports by (snapshot_meta facts_categories_hash, facts_reports_hash). */
export function factsTableHashes(db: Database.Database): { categories: string; reports: string } {
  return {
    categories: sha(JSON.stringify(db.prepare('SELECT * FROM categories ORDER BY id').all())),
    reports: sha(JSON.stringify(db.prepare('SELECT * FROM reports ORDER BY slug').all())),
  };
}
