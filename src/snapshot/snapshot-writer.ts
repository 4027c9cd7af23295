/**
 * Writes validated records into the snapshot being built: prepared statements,
 * big transactions (a commit every COMMIT_EVERY records), and the FTS row of
 * each published provider as it goes by (its texts also go to the search postings),
 * the line table of each .ndjson file and each proof's line hash (dataset_lines,
 * proof_lines: what the next build compares with, line-table.ts).
 */
import type Database from 'better-sqlite3';
import type { CategoryRecord, ProofRecord, ProviderRecord, ReportRecord } from '../schemas/dataset.ts';
import type { DatasetSink } from './dataset-reader.ts';
import { isPublished, providerColumns, providerTags } from './provider-columns.ts';
import type { PostingsBuilder } from './search-postings-builder.ts';
import { TagGroups } from './tag-groups.ts';
import { recordHash } from './dataset-records.ts';
import { INSERT_PROOF_LINE_SQL, writeLineTable, type LineTable } from './line-table.ts';

const COMMIT_EVERY = 100_000;

const PROVIDER_COLUMNS = [
  'id', 'slug', 'company_name', 'tagline', 'description', 'website', 'city', 'city_slug', 'city_name', 'province',
  'province_name', 'country',
  'primary_category_id', 'trust_level', 'confidence_score', 'overall_rating', 'total_reviews', 'capability_tags',
  'industry_focus', 'languages_supported', 'employee_available', 'employee_provenance', 'employee_min', 'employee_max',
  'business_size', 'budget_available', 'budget_provenance', 'budget_currency_class', 'min_project_budget_idr',
  'rate_available', 'rate_provenance', 'rate_currency_class', 'hourly_rate_idr', 'profile_provenance', 'source_type',
  'source_primary_url', 'source_accessed_at', 'submission_status', 'published_at', 'updated_at',
] as const;

/** Names of a category and its ancestors, for fts_providers.category_names and embedding text. */
export type CategoryNames = Map<string, string[]>;

export function categoryNameChains(categories: CategoryRecord[]): CategoryNames {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const chains: CategoryNames = new Map();
  for (const c of categories) {
    const names: string[] = [];
    let current: CategoryRecord | undefined = c;
    // The validator guarantees a forest; the bound only guards against a bug looping forever.
    for (let depth = 0; current && depth < 64; depth++) {
      names.push(current.name);
      current = current.parentId === null ? undefined : byId.get(current.parentId);
    }
    chains.set(c.id, names);
  }
  return chains;
}

/** Distinct names of the categories (and their parents) of a provider. */
export function namesOfCategories(chains: CategoryNames, categoryIds: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const id of categoryIds) for (const name of chains.get(id) ?? []) names.add(name);
  return [...names];
}

export class SnapshotWriter implements DatasetSink {
  categoryNames: CategoryNames = new Map();
  published = 0;
  /** recordHash of the categories and of the reports written (snapshot_meta categories_hash, reports_hash) */
  categoriesHash = recordHash([]);
  private readonly reports: ReportRecord[] = [];
  private rowid = 0;
  private pending = 0;
  private readonly insertCategory: Database.Statement;
  private readonly insertProvider: Database.Statement;
  private readonly insertDashboard: Database.Statement;
  private readonly insertCommercial: Database.Statement;
  private readonly insertLink: Database.Statement;
  /** provider_tags rows, written in key order by finish() (tag-groups.ts) */
  private readonly tags = new TagGroups();
  private readonly insertFts: Database.Statement;
  private readonly insertProof: Database.Statement;
  private readonly insertReport: Database.Statement;
  private readonly insertProofLine: Database.Statement;

  /** `postings` receives each published provider's FTS column texts (search-postings-builder.ts). */
  private readonly db: Database.Database;
  private readonly postings?: Pick<PostingsBuilder, 'add' | 'drain'>;
  constructor(
    db: Database.Database,
    postings?: Pick<PostingsBuilder, 'add' | 'drain'>,
  ) {
    this.db = db;
    this.postings = postings;
    this.insertCategory = db.prepare(
      `INSERT INTO categories (id, slug, name, parent_id, active, description, position)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    // Positional parameters: binding 39 named ones costs a lookup each.
    this.insertProvider = db.prepare(
      `INSERT INTO providers (rowid, ${PROVIDER_COLUMNS.join(', ')})
       VALUES (?${', ?'.repeat(PROVIDER_COLUMNS.length)})`,
    );
    this.insertDashboard = db.prepare(
      'INSERT INTO provider_dashboard (provider_rowid, moderation_notes, internal_status) VALUES (?, ?, ?)',
    );
    this.insertCommercial = db.prepare(
      `INSERT INTO provider_commercial_raw (provider_rowid, employee_count, min_budget_amount, min_budget_currency,
         hourly_rate_amount, hourly_rate_currency) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    // One plain statement per link: measured 20x cheaper than one json_each statement
    // per provider (that one materialized its rows first, ~65 us a provider).
    // A provider may list a category twice: the first (lowest) position wins.
    this.insertLink = db.prepare(
      'INSERT OR IGNORE INTO provider_categories (provider_rowid, category_id, position) VALUES (?, ?, ?)',
    );
    this.insertFts = db.prepare(
      `INSERT INTO fts_providers (rowid, company_name, tagline, description, capability_tags, industry_focus,
         category_names, city, province) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertProof = db.prepare(
      `INSERT INTO proofs (id, provider_rowid, title, kind, url, submission_status, is_public, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertReport = db.prepare(
      'INSERT INTO reports (slug, title, category_slug, country, year, summary) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertProofLine = db.prepare(INSERT_PROOF_LINE_SQL);
    db.exec('BEGIN');
  }

  get reportsHash(): string {
    return recordHash(this.reports);
  }

  categories(accepted: Array<{ record: CategoryRecord; index: number }>): void {
    for (const { record: c, index } of accepted) {
      this.insertCategory.run(c.id, c.slug, c.name, c.parentId, c.active ? 1 : 0, c.description ?? null, index);
    }
    this.categoryNames = categoryNameChains(accepted.map((a) => a.record));
    this.categoriesHash = recordHash(accepted.map((a) => a.record));
  }

  /** `rowid`: the provider's rowid in the snapshot an incremental build changes; else the next one. */
  provider(p: ProviderRecord, rowid = ++this.rowid): number {
    const columns = providerColumns(p);
    this.insertProvider.run(rowid, ...PROVIDER_COLUMNS.map((c) => columns[c]));
    this.insertDashboard.run(rowid, p.moderationNotes, p.internalStatus);
    this.insertCommercial.run(
      rowid,
      p.employeeCount?.value ?? null,
      p.minProjectBudget?.amount ?? null,
      p.minProjectBudget?.currency ?? null,
      p.hourlyRate?.amount ?? null,
      p.hourlyRate?.currency ?? null,
    );
    p.categoryIds.forEach((categoryId, position) => this.insertLink.run(rowid, categoryId, position));
    this.tags.add(rowid, providerTags(p));
    if (isPublished(p)) {
      this.published++;
      const ftsColumns = [
        p.companyName,
        p.tagline,
        p.description,
        p.capabilityTags.join(' '),
        p.industryFocus.join(' '),
        namesOfCategories(this.categoryNames, p.categoryIds).join(' '),
        p.city ?? '',
        p.province ?? '',
      ];
      this.insertFts.run(rowid, ...ftsColumns);
      this.postings?.add(rowid, ftsColumns);
    }
    this.tick();
    return rowid;
  }

  drain(): Promise<void> {
    return this.postings?.drain() ?? Promise.resolve();
  }

  proof(r: ProofRecord, providerRowid: number, lineHash: Buffer): void {
    this.insertProof.run(r.id, providerRowid, r.title, r.kind, r.url, r.submissionStatus, r.isPublic ? 1 : 0, r.createdAt);
    this.insertProofLine.run(r.id, lineHash.subarray(0, 8));
    this.tick();
  }

  lines(file: string, table: LineTable): void {
    writeLineTable(this.db, file, table);
  }

  report(r: ReportRecord): void {
    this.insertReport.run(r.slug, r.title, r.categorySlug, r.country, r.year, r.summary);
    this.reports.push(r);
  }

  /** Writes the gathered tags and commits (the writer is done). */
  finish(): void {
    this.tags.write(this.db);
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  private tick(): void {
    if (++this.pending < COMMIT_EVERY) return;
    this.pending = 0;
    this.db.exec('COMMIT');
    this.db.exec('BEGIN');
  }
}
