/**
 * `npm run keys -- create|list|revoke`: the operator's view of KEYS_DB.
 * The created key goes alone to stdout (so `KEY=$(npm run -s keys -- create ...)`
 * works); every other message goes to stderr.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { KEY_PREFIX } from './key-format.ts';
import { KeyStore, TierSchema, TIER_LIMITS, type KeyInfo } from './key-store.ts';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage:
  npm run keys -- create --tier regular|enterprise [--name TEXT] [--expires ISO8601]
  npm run keys -- list
  npm run keys -- revoke KEY_PREFIX`;

const ExpiresSchema = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date or date-time')
  .transform((s) => new Date(s).toISOString());

function describe(k: KeyInfo, now: Date): string {
  const state = k.revokedAt
    ? `revoked ${k.revokedAt}`
    : k.expiresAt && Date.parse(k.expiresAt) <= now.getTime()
      ? `expired ${k.expiresAt}`
      : 'active';
  return [k.prefix, k.tier, `${TIER_LIMITS[k.tier]}/min`, state, `created ${k.createdAt}`, `expires ${k.expiresAt ?? 'never'}`, k.name ?? ''].join('\t');
}

/** Runs one command; returns the process exit code. */
export function runKeysCli(argv: string[], keysDb: string, io: CliIo, now = new Date()): number {
  const [command, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { tier: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' } },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;

  if (command === 'create') {
    const tier = TierSchema.safeParse(values.tier);
    if (!tier.success) {
      io.err(`--tier must be regular or enterprise\n${USAGE}`);
      return 2;
    }
    let expiresAt: string | null = null;
    if (values.expires !== undefined) {
      const expires = ExpiresSchema.safeParse(values.expires);
      if (!expires.success) {
        io.err(`--expires ${expires.error.issues[0]?.message}`);
        return 2;
      }
      expiresAt = expires.data;
    }
    const store = new KeyStore(keysDb);
    try {
      const { key, info } = store.create({ tier: tier.data, name: values.name ?? null, expiresAt }, now);
      io.err(`created ${info.prefix} (${info.tier}, ${TIER_LIMITS[info.tier]} requests/min, expires ${info.expiresAt ?? 'never'}) in ${keysDb}`);
      io.err('the key is shown once; only its SHA-256 hash is stored');
      io.out(key);
      return 0;
    } finally {
      store.close();
    }
  }

  if (command === 'list') {
    const store = new KeyStore(keysDb);
    try {
      const keys = store.list();
      if (keys.length === 0) io.err(`no keys in ${keysDb}`);
      for (const k of keys) io.out(describe(k, now));
      return 0;
    } finally {
      store.close();
    }
  }

  if (command === 'revoke') {
    const prefix = positionals[0];
    if (!prefix || positionals.length > 1) {
      io.err(`revoke takes one KEY_PREFIX\n${USAGE}`);
      return 2;
    }
    if (!prefix.startsWith(KEY_PREFIX) || prefix.length < KEY_PREFIX.length + 4) {
      io.err(`KEY_PREFIX must start with ${KEY_PREFIX} and name at least 4 more characters (see: npm run keys -- list)`);
      return 2;
    }
    const store = new KeyStore(keysDb);
    try {
      const result = store.revoke(prefix, now);
      if (result.ok) {
        io.err(`revoked ${result.key.prefix} (${result.key.tier}${result.key.name ? `, ${result.key.name}` : ''})`);
        return 0;
      }
      if (result.reason === 'not_found') {
        io.err(`no key matches ${prefix}`);
        return 1;
      }
      io.err(`${prefix} matches ${result.matches.length} keys; nothing revoked. Give a longer prefix:`);
      for (const k of result.matches) io.err(`  ${describe(k, now)}`);
      return 1;
    } finally {
      store.close();
    }
  }

  io.err(USAGE);
  return 2;
}
