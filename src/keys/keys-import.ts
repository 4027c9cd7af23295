/**
 * Keys left in KEYS_DB on a node that reads its keys from Redis (REDIS_URL): the
 * one-time move (`npm run keys -- import`, src/keys/cli.ts) reads them from here,
 * and the server's start and the CLI say how many are still only there.
 */
import fs from 'node:fs';
import { KeyStore, type KeyRecord } from './key-store.ts';
import { RedisKeys } from './redis-keys.ts';

/** The keys of KEYS_DB (none when the file does not exist: it is never created here). */
export function keysDbRecords(keysDb: string): KeyRecord[] {
  if (!fs.existsSync(keysDb)) return [];
  const store = new KeyStore(keysDb);
  try {
    return store.records();
  } finally {
    store.close();
  }
}

/** How many keys of KEYS_DB a Redis key store does not hold (0 without a KEYS_DB file). */
export async function keysMissingFromRedis(keysDb: string, redis: RedisKeys): Promise<number> {
  let missing = 0;
  for (const record of keysDbRecords(keysDb)) if (!(await redis.holds(record))) missing++;
  return missing;
}

/** A server's start with REDIS_URL: keys left in KEYS_DB are unknown to it; one line says so and how to move them. */
export async function warnKeysNotInRedis(keysDb: string, redisUrl: string, warn: (message: string) => void): Promise<void> {
  const redis = new RedisKeys(redisUrl);
  try {
    const missing = await keysMissingFromRedis(keysDb, redis);
    if (missing > 0) warn(`KEYS_DB ${keysDb} holds ${missing} keys that are not in Redis, and this node reads its keys from Redis (REDIS_URL): run npm run keys -- import`);
  } catch {
    // Redis away: the keyed routes say so themselves (503)
  } finally {
    await redis.close();
  }
}
