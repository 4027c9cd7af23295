/**
 * The snapshot's SQL, from schema.sql (the one contract every reader is written
 * against), split so the builder can load rows first and build the secondary
 * indexes afterwards (one sorted pass each, much faster than keeping 11 indexes
 * up to date through a million inserts).
 */
import fs from 'node:fs';

export { SCHEMA_VERSION } from './schema-version.ts';

export const FTS_COLUMNS = [
  'company_name',
  'tagline',
  'description',
  'capability_tags',
  'industry_focus',
  'category_names',
  'city',
  'province',
] as const;

export const CREATE_FTS_SQL = `CREATE VIRTUAL TABLE fts_providers USING fts5(
  ${FTS_COLUMNS.join(', ')},
  content='', tokenize='unicode61 remove_diacritics 2')`;

export function createVecSql(dims: number): string {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192) throw new Error(`embedder dims must be an integer in 1..8192, got ${dims}`);
  return `CREATE VIRTUAL TABLE vec_providers USING vec0(embedding float[${dims}] distance_metric=cosine)`;
}

export interface SchemaStatements {
  /** Tables and views, run before loading. */
  readonly tables: readonly string[];
  /** CREATE INDEX statements, run after loading. */
  readonly indexes: readonly string[];
}

/** schema.sql's statements, read once when the module loads (the file ships beside it). */
export const SCHEMA_STATEMENTS: SchemaStatements = readSchemaStatements();

function readSchemaStatements(): SchemaStatements {
  const sql = fs.readFileSync(new URL('./schema.sql', import.meta.url), 'utf8');
  // schema.sql has no triggers or string literals with ';', so statements split on ';'.
  const statements = sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const isIndex = (s: string) => /^CREATE\s+(UNIQUE\s+)?INDEX\b/i.test(s);
  return { tables: statements.filter((s) => !isIndex(s)), indexes: statements.filter(isIndex) };
}
