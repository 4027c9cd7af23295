/**
 * API keys in Redis (REDIS_URL): one record per key, the same fields as a KEYS_DB
 * row, the secret never (only its lookup prefix and SHA-256, hex):
 *
 *   pd:apikeys                  hash: key id -> JSON record
 *   pd:apikeys:prefix:<prefix>  set of the ids sharing a lookup prefix
 *   pd:apikeys:next-id          the last id given
 *
 * A request's check is one script (the ids under the prefix, then their records)
 * and nothing is cached, so a key created or revoked by `npm run keys` on any
 * machine holds on every node at its next request. Ids are numbers as in KEYS_DB,
 * and `import` keeps a key's id, so its rate-limit counter (keyed by id) carries on.
 *
 * While Redis is unreachable a check fails at once (the key guard answers 503, as
 * the rate limiter does), instead of waiting in ioredis's offline queue.
 */
import { Redis } from 'ioredis';
import * as z from 'zod';
import { generateKey, hashKey, lookupPrefixOf, looksLikeKey } from './key-format.ts';
import { judgeKey, revokePrefix, TierSchema, type KeyCheck, type KeyInfo, type KeyRecord, type Keys, type NewKey, type RevokeResult } from './key-store.ts';

const RECORDS = 'pd:apikeys';
const NEXT_ID = 'pd:apikeys:next-id';
const byPrefix = (prefix: string) => `pd:apikeys:prefix:${prefix}`;

const StoredKeySchema = z.object({
  id: z.number().int().positive(),
  prefix: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  tier: TierSchema,
  name: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
type StoredKey = z.output<typeof StoredKeySchema>;

/** KEYS[1] the prefix's set, KEYS[2] the records: the records of the ids under the prefix. */
const CANDIDATES = `
local ids = redis.call('SMEMBERS', KEYS[1])
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))
`;

/** KEYS[1] the records; ARGV id, revokedAt: sets revokedAt once and returns the record. */
const REVOKE = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return false end
local r = cjson.decode(v)
if r.revokedAt == cjson.null or r.revokedAt == nil then
  r.revokedAt = ARGV[2]
  v = cjson.encode(r)
  redis.call('HSET', KEYS[1], ARGV[1], v)
end
return v
`;

/** KEYS[1] the counter, ARGV a number: raises the counter to it (an import keeps the ids it brings). */
const RAISE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
`;

/** host:port of a Redis URL, never its password */
const redisHost = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return 'at REDIS_URL';
  }
};

const toRecord = (s: StoredKey): KeyRecord => ({ ...toInfo(s), hash: Buffer.from(s.hash, 'hex') });
const toInfo = ({ hash: _hash, ...info }: StoredKey): KeyInfo => info;
const parse = (json: string): StoredKey => StoredKeySchema.parse(JSON.parse(json));

export class RedisKeys implements Keys {
  readonly where: string;
  private readonly redis: Redis;
  private wasReady = false;

  constructor(url: string) {
    this.where = `Redis ${redisHost(url)}`;
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 });
    this.redis.on('error', () => {}); // surfaced by the command that needs Redis
    this.redis.once('ready', () => (this.wasReady = true));
  }

  async create(input: NewKey, now = new Date()): Promise<{ key: string; info: KeyInfo }> {
    const key = generateKey();
    const id = await this.redis.incr(NEXT_ID);
    const stored: StoredKey = {
      id,
      prefix: lookupPrefixOf(key),
      hash: hashKey(key).toString('hex'),
      tier: input.tier,
      name: input.name ?? null,
      createdAt: now.toISOString(),
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await this.write(stored);
    return { key, info: toInfo(stored) };
  }

  async verify(presented: string, now = new Date()): Promise<KeyCheck> {
    if (!looksLikeKey(presented)) return { ok: false, reason: 'unknown' };
    this.usable();
    const found = (await this.redis.eval(CANDIDATES, 2, byPrefix(lookupPrefixOf(presented)), RECORDS)) as (string | null)[];
    return judgeKey(presented, found.filter((v): v is string => v !== null).map((v) => toRecord(parse(v))), now);
  }

  async list(): Promise<KeyInfo[]> {
    return (await this.stored()).map(toInfo);
  }

  async revoke(prefixOrKey: string, now = new Date()): Promise<RevokeResult> {
    const prefix = revokePrefix(prefixOrKey);
    const matches = (await this.stored()).filter((s) => s.prefix.startsWith(prefix));
    if (matches.length === 0) return { ok: false, reason: 'not_found' };
    if (matches.length > 1) return { ok: false, reason: 'ambiguous', matches: matches.map(toInfo) };
    const after = (await this.redis.eval(REVOKE, 1, RECORDS, matches[0]!.id, now.toISOString())) as string | null;
    if (!after) return { ok: false, reason: 'not_found' };
    return { ok: true, key: toInfo(parse(after)) };
  }

  /**
   * Moves KEYS_DB's keys in: a key already here (same hash) is left as it is, revoked or
   * not; the others keep their id when it is free. Safe to run again.
   */
  async importRecords(records: readonly KeyRecord[]): Promise<{ imported: number; present: number }> {
    let imported = 0;
    let present = 0;
    for (const record of records) {
      if (await this.holds(record)) {
        present++;
        continue;
      }
      const { hash, ...info } = record;
      const stored: StoredKey = { ...info, hash: hash.toString('hex') };
      const idFree = (await this.redis.hsetnx(RECORDS, String(record.id), JSON.stringify(stored))) === 1;
      if (idFree) await this.redis.sadd(byPrefix(stored.prefix), String(stored.id));
      else await this.write({ ...stored, id: await this.redis.incr(NEXT_ID) });
      imported++;
    }
    await this.redis.eval(RAISE, 1, NEXT_ID, Math.max(0, ...records.map((r) => r.id)));
    return { imported, present };
  }

  /** Whether a key with this record's hash is stored here. */
  async holds(record: KeyRecord): Promise<boolean> {
    const hex = record.hash.toString('hex');
    const found = (await this.redis.eval(CANDIDATES, 2, byPrefix(record.prefix), RECORDS)) as (string | null)[];
    return found.some((v) => v !== null && parse(v).hash === hex);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async write(stored: StoredKey): Promise<void> {
    await this.redis
      .multi()
      .hset(RECORDS, String(stored.id), JSON.stringify(stored))
      .sadd(byPrefix(stored.prefix), String(stored.id))
      .exec();
  }

  private async stored(): Promise<StoredKey[]> {
    const all = await this.redis.hvals(RECORDS);
    return all.map(parse).sort((a, b) => a.id - b.id);
  }

  /** Before the first connection commands wait in the queue (a node that just started); after a lost one they fail at once. */
  private usable(): void {
    if (this.wasReady && this.redis.status !== 'ready') throw new Error(`redis is ${this.redis.status}`);
  }
}
