/**
 * What an API key looks like and how it is stored.
 *
 * A key is `pdk_live_` + 43 base64url characters (32 random bytes, 256 bits). The
 * first 8 random characters after the prefix are the key's public lookup prefix
 * (`pdk_live_AbCd1234`), stored in clear so a request finds its row with one
 * index lookup and an operator can name a key to revoke.
 *
 * Only SHA-256 of the whole key is stored. A slow password hash (scrypt, argon2)
 * exists to make guessing low-entropy human passwords expensive; these keys carry
 * 256 bits of randomness, so a brute force against a leaked hash is hopeless with
 * any hash, and a fast hash keeps every request's check in microseconds.
 */
import crypto from 'node:crypto';

export const KEY_PREFIX = 'pdk_live_';
const RANDOM_BYTES = 32;
/** Characters of the random part kept in clear as the lookup prefix. */
export const LOOKUP_CHARS = 8;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

export function generateKey(): string {
  return KEY_PREFIX + crypto.randomBytes(RANDOM_BYTES).toString('base64url');
}

/** True when the text has the exact shape of one of our keys (no lookup needed to refuse garbage). */
export function looksLikeKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

/** The public part that names a key: `pdk_live_` + its first 8 random characters. */
export function lookupPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX.length + LOOKUP_CHARS);
}

export function hashKey(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

/**
 * Constant-time equality of two hashes. Both are SHA-256 digests (32 bytes), so
 * the length check never leaks anything about the secret.
 */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
