/**
 * The API key store over KEYS_DB: a small SQLite file apart from the snapshot, so
 * keys survive every snapshot rebuild. Rows hold the lookup prefix and SHA-256 of
 * the key, never the key itself (see key-format.ts for why SHA-256 is enough).
 *
 * Revocation and expiry take effect on the next request: the server reads the row
 * on every check (one indexed lookup), nothing is cached.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as z from 'zod';
import { generateKey, hashKey, lookupPrefixOf, looksLikeKey, sameHash } from './key-format.ts';

export const TierSchema = z.enum(['regular', 'enterprise']);
export type Tier = z.output<typeof TierSchema>;

/** Requests per one-minute window, by tier (spec, Limits). */
export const TIER_LIMITS: Readonly<Record<Tier, number>> = { regular: 30, enterprise: 120 };

/** A key as the store describes it: everything but the secret. */
export interface KeyInfo {
  id: number;
  prefix: string;
  tier: Tier;
  name: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export type KeyCheck = { ok: true; key: KeyInfo } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export interface NewKey {
  tier: Tier;
  name?: string | null;
  expiresAt?: string | null;
}

/** The store the server and `npm run keys` use: KEYS_DB (KeyStore below) or Redis (redis-keys.ts), see keys.ts. */
export interface Keys {
  /** where the keys are, for the operator's messages: `KEYS_DB path` or `Redis url` */
  readonly where: string;
  create(input: NewKey, now?: Date): Promise<{ key: string; info: KeyInfo }>;
  verify(presented: string, now?: Date): Promise<KeyCheck>;
  list(): Promise<KeyInfo[]>;
  revoke(prefixOrKey: string, now?: Date): Promise<RevokeResult>;
  close(): Promise<void>;
}

/** A key as stored: its description and the SHA-256 of the secret. */
export interface KeyRecord extends KeyInfo {
  hash: Buffer;
}

export type RevokeResult =
  | { ok: true; key: KeyInfo }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'ambiguous'; matches: KeyInfo[] };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id            INTEGER PRIMARY KEY,
  lookup_prefix TEXT NOT NULL,            -- 'pdk_live_' + 8 characters: names the key, finds its row
  key_hash      BLOB NOT NULL,            -- SHA-256 of the whole key; the key itself is never stored
  tier          TEXT NOT NULL CHECK (tier IN ('regular', 'enterprise')),
  name          TEXT,
  created_at    TEXT NOT NULL,
  expires_at    TEXT,                     -- ISO 8601; NULL = never
  revoked_at    TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_by_prefix ON api_keys(lookup_prefix);
`;

interface KeyRow {
  id: number;
  lookup_prefix: string;
  key_hash: Buffer;
  tier: Tier;
  name: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = 'id, lookup_prefix, key_hash, tier, name, created_at, expires_at, revoked_at';

/**
 * The verdict on a presented key among the stored keys sharing its lookup prefix. Every
 * candidate is compared in constant time, so neither the prefix lookup nor the
 * comparison tells an attacker how much of a guess was right.
 */
export function judgeKey(presented: string, candidates: readonly KeyRecord[], now: Date): KeyCheck {
  const hash = hashKey(presented);
  let match: KeyRecord | undefined;
  for (const record of candidates) if (sameHash(record.hash, hash)) match = record;
  if (!match) return { ok: false, reason: 'unknown' };
  if (match.revokedAt !== null) return { ok: false, reason: 'revoked' };
  if (match.expiresAt !== null && Date.parse(match.expiresAt) <= now.getTime()) return { ok: false, reason: 'expired' };
  const { hash: _hash, ...info } = match;
  return { ok: true, key: info };
}

/** The lookup prefix a revoke names: a whole key pasted by mistake still names its row. */
export const revokePrefix = (prefixOrKey: string): string => (looksLikeKey(prefixOrKey) ? lookupPrefixOf(prefixOrKey) : prefixOrKey);

const toRecord = (r: KeyRow): KeyRecord => ({ ...toInfo(r), hash: r.key_hash });

const toInfo = (r: KeyRow): KeyInfo => ({
  id: r.id,
  prefix: r.lookup_prefix,
  tier: r.tier,
  name: r.name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

export class KeyStore {
  private readonly db: Database.Database;

  readonly file: string;
  constructor(file: string) {
    this.file = file;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    // WAL: the CLI writes while servers read, without blocking them.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 2000');
    this.db.exec(SCHEMA);
  }

  /** Creates a key and returns it: the only moment the secret exists outside the caller's hands. */
  create(input: { tier: Tier; name?: string | null; expiresAt?: string | null }, now = new Date()): { key: string; info: KeyInfo } {
    const key = generateKey();
    const result = this.db
      .prepare(
        `INSERT INTO api_keys (lookup_prefix, key_hash, tier, name, created_at, expires_at)
         VALUES (:prefix, :hash, :tier, :name, :createdAt, :expiresAt)`,
      )
      .run({
        prefix: lookupPrefixOf(key),
        hash: hashKey(key),
        tier: input.tier,
        name: input.name ?? null,
        createdAt: now.toISOString(),
        expiresAt: input.expiresAt ?? null,
      });
    return { key, info: this.byId(Number(result.lastInsertRowid))! };
  }

  /** Checks a presented key against the rows sharing its lookup prefix (judgeKey). */
  verify(presented: string, now = new Date()): KeyCheck {
    if (!looksLikeKey(presented)) return { ok: false, reason: 'unknown' };
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE lookup_prefix = ?`)
      .all(lookupPrefixOf(presented)) as KeyRow[];
    return judgeKey(presented, rows.map(toRecord), now);
  }

  list(): KeyInfo[] {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all() as KeyRow[]).map(toInfo);
  }

  /** Every key with its hash, oldest first: what `npm run keys -- import` moves into Redis. */
  records(): KeyRecord[] {
    return (this.db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`).all() as KeyRow[]).map(toRecord);
  }

  /** Revokes the one key whose lookup prefix starts with `prefix`; refuses a prefix that names several. */
  revoke(prefixOrKey: string, now = new Date()): RevokeResult {
    const prefix = revokePrefix(prefixOrKey);
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    const matches = (
      this.db
        .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE lookup_prefix LIKE ? ESCAPE '\\' ORDER BY id`)
        .all(`${escaped}%`) as KeyRow[]
    ).filter((r) => r.lookup_prefix.startsWith(prefix)); // LIKE is case-insensitive; prefixes are not
    if (matches.length === 0) return { ok: false, reason: 'not_found' };
    if (matches.length > 1) return { ok: false, reason: 'ambiguous', matches: matches.map(toInfo) };
    const row = matches[0]!;
    this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(now.toISOString(), row.id);
    return { ok: true, key: this.byId(row.id)! };
  }

  private byId(id: number): KeyInfo | undefined {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as KeyRow | undefined;
    return row && toInfo(row);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
