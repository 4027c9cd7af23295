/**
 * `npm run keys -- create|list|revoke|import`: the operator's view of the key store
 * (KEYS_DB, or Redis when REDIS_URL is set: src/keys/keys.ts). The created key
 * goes alone to stdout (so `KEY=$(npm run -s keys -- create ...)` works); every
 * other message goes to stderr.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { KEY_PREFIX } from './key-format.ts';
import { TierSchema, TIER_LIMITS, type KeyInfo, type Keys } from './key-store.ts';
import { keysDbRecords, keysMissingFromRedis } from './keys-import.ts';
import { openKeys, type KeysSettings } from './keys.ts';
import { RedisKeys } from './redis-keys.ts';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage:
  npm run keys -- create --tier regular|enterprise [--name TEXT] [--expires ISO8601]
  npm run keys -- list
  npm run keys -- revoke KEY_PREFIX
  npm run keys -- import          (with REDIS_URL: moves the keys of KEYS_DB into Redis, once)`;

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

/** Runs one command; resolves with the process exit code. */
export async function runKeysCli(argv: string[], settings: KeysSettings, io: CliIo, now = new Date()): Promise<number> {
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
  if (command === 'import') return importKeys(settings, io);
  if (command !== 'create' && command !== 'list' && command !== 'revoke') {
    io.err(USAGE);
    return 2;
  }
  const checked = checkArguments(command, values, positionals, io);
  if (typeof checked === 'number') return checked;
  const keys = openKeys(settings);
  try {
    await warnUnimported(settings, keys, io);
    return await run(command, checked, keys, io, now);
  } catch (err) {
    io.err(`${keys.where}: ${(err as Error).message}`);
    return 1;
  } finally {
    await keys.close();
  }
}

interface Checked {
  tier?: z.output<typeof TierSchema>;
  expiresAt?: string | null;
  name?: string | undefined;
  prefix?: string;
}

function checkArguments(command: string, values: { tier?: string; name?: string; expires?: string }, positionals: string[], io: CliIo): Checked | number {
  if (command === 'create') {
    const tier = TierSchema.safeParse(values.tier);
    if (!tier.success) {
      io.err(`--tier must be regular or enterprise\n${USAGE}`);
      return 2;
    }
    if (values.expires === undefined) return { tier: tier.data, expiresAt: null, name: values.name };
    const expires = ExpiresSchema.safeParse(values.expires);
    if (!expires.success) {
      io.err(`--expires ${expires.error.issues[0]?.message}`);
      return 2;
    }
    return { tier: tier.data, expiresAt: expires.data, name: values.name };
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
    return { prefix };
  }
  return {};
}

async function run(command: 'create' | 'list' | 'revoke', a: Checked, keys: Keys, io: CliIo, now: Date): Promise<number> {
  if (command === 'create') {
    const { key, info } = await keys.create({ tier: a.tier!, name: a.name ?? null, expiresAt: a.expiresAt ?? null }, now);
    io.err(`created ${info.prefix} (${info.tier}, ${TIER_LIMITS[info.tier]} requests/min, expires ${info.expiresAt ?? 'never'}) in ${keys.where}`);
    io.err('the key is shown once; only its SHA-256 hash is stored');
    io.out(key);
    return 0;
  }
  if (command === 'list') {
    const list = await keys.list();
    if (list.length === 0) io.err(`no keys in ${keys.where}`);
    for (const k of list) io.out(describe(k, now));
    return 0;
  }
  const result = await keys.revoke(a.prefix!, now);
  if (result.ok) {
    io.err(`revoked ${result.key.prefix} (${result.key.tier}${result.key.name ? `, ${result.key.name}` : ''}) in ${keys.where}`);
    return 0;
  }
  if (result.reason === 'not_found') {
    io.err(`no key matches ${a.prefix} in ${keys.where}`);
    return 1;
  }
  io.err(`${a.prefix} matches ${result.matches.length} keys; nothing revoked. Give a longer prefix:`);
  for (const k of result.matches) io.err(`  ${describe(k, now)}`);
  return 1;
}

async function importKeys(settings: KeysSettings, io: CliIo): Promise<number> {
  if (!settings.redisUrl) {
    io.err('import moves the keys of KEYS_DB into Redis: set REDIS_URL');
    return 2;
  }
  const records = keysDbRecords(settings.keysDb);
  const redis = new RedisKeys(settings.redisUrl);
  try {
    const { imported, present } = await redis.importRecords(records);
    io.err(`imported ${imported} keys from KEYS_DB ${settings.keysDb} into ${redis.where} (${present} were there already); the nodes read them from Redis from now on`);
    return 0;
  } catch (err) {
    io.err(`${redis.where}: ${(err as Error).message}`);
    return 1;
  } finally {
    await redis.close();
  }
}

/** With REDIS_URL, the keys still only in KEYS_DB are unknown to every node: say so, and how to move them. */
async function warnUnimported(settings: KeysSettings, keys: Keys, io: CliIo): Promise<void> {
  if (!(keys instanceof RedisKeys)) return;
  const missing = await keysMissingFromRedis(settings.keysDb, keys);
  if (missing > 0) io.err(`warning: KEYS_DB ${settings.keysDb} holds ${missing} keys that are not in Redis; the nodes no longer read KEYS_DB: run npm run keys -- import`);
}

