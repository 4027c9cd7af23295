/**
 * The key store the server and `npm run keys` use, chosen by the settings: with
 * REDIS_URL the keys live in Redis (redis-keys.ts), the store every node already
 * shares for rate limits, so a key created or revoked on one machine holds on all
 * of them at their next request; without it, in the KEYS_DB file of one node
 * (key-store.ts). Either holds only the lookup prefix and SHA-256 of each key.
 */
import { KeyStore, type Keys } from './key-store.ts';
import { RedisKeys } from './redis-keys.ts';

export interface KeysSettings {
  keysDb: string;
  redisUrl?: string | undefined;
}

/** The one key store of these settings. */
export function openKeys(settings: KeysSettings): Keys {
  return settings.redisUrl ? new RedisKeys(settings.redisUrl) : sqliteKeys(settings.keysDb);
}

/** KEYS_DB behind the same promises as Redis (each call is one indexed SQLite statement). */
export function sqliteKeys(file: string): Keys {
  const store = new KeyStore(file);
  return {
    where: `KEYS_DB ${file}`,
    create: async (input, now) => store.create(input, now),
    verify: async (presented, now) => store.verify(presented, now),
    list: async () => store.list(),
    revoke: async (prefix, now) => store.revoke(prefix, now),
    close: async () => store.close(),
  };
}
