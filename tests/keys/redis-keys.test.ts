/**
 * API keys in Redis (REDIS_URL), over a real redis-server: `npm run keys` writes
 * there and the real server reads there on every request, so a new key works and
 * a revoked one stops at the next request; Redis holds no secret; `import` moves
 * a KEYS_DB in once (ids and revocations kept, a second run changes nothing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PREFIX } from '../../src/keys/key-format.ts';
import { KeyStore } from '../../src/keys/key-store.ts';
import { RedisKeys } from '../../src/keys/redis-keys.ts';
import { buildTestSnapshot, startRedis, startServer, type Child } from './fixture.ts';

let redis: Child;
let dir = '';
let dbFile = '';

beforeAll(async () => {
  ({ dir, dbFile } = await buildTestSnapshot(120, 9));
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const keysCli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/keys.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

/** Every key and value Redis holds, as text. */
async function redisDump(): Promise<string> {
  const client = new Redis(redis.url);
  try {
    const parts: string[] = [];
    for (const name of await client.keys('*')) {
      const type = await client.type(name);
      const value = type === 'hash' ? await client.hgetall(name) : type === 'set' ? await client.smembers(name) : await client.get(name);
      parts.push(name, JSON.stringify(value));
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}

describe('npm run keys with REDIS_URL', () => {
  it('creates, lists and revokes in Redis, which never holds the secret, and the node honours each at its next request', async () => {
    const env = { REDIS_URL: redis.url, KEYS_DB: path.join(dir, 'unused-keys.db') };
    const node = await startServer({ DIRECTORY_DB: dbFile, ...env });
    try {
      const created = keysCli(['create', '--tier', 'regular', '--name', 'partner B'], env);
      expect(created.status, created.stderr).toBe(0);
      const key = created.stdout.trim();
      expect(created.stderr).toMatch(/in Redis 127\.0\.0\.1:\d+/);
      const call = async () => (await fetch(`${node.url}/api/ai/recommend?q=website&limit=1`, { headers: { 'x-api-key': key } })).status;
      expect(await call()).toBe(200);

      const dump = await redisDump();
      expect(dump).toContain(key.slice(0, KEY_PREFIX.length + 8));
      expect(dump).not.toContain(key.slice(KEY_PREFIX.length + 8));

      const listed = keysCli(['list'], env);
      expect(listed.stdout).toContain(key.slice(0, 17));
      expect(listed.stdout).toContain('partner B');
      expect(listed.stdout).not.toContain(key.slice(17));

      expect(keysCli(['revoke', key.slice(0, 17)], env).status).toBe(0);
      expect(await call()).toBe(401);
      expect(keysCli(['list'], env).stdout).toMatch(/revoked/);
      expect(fs.existsSync(env.KEYS_DB)).toBe(false); // KEYS_DB is neither read nor made
    } finally {
      await node.stop();
    }
  });

  it('imports KEYS_DB once: ids, tiers and revocations kept, a second run imports nothing, new ids follow', async () => {
    const keysDb = path.join(dir, 'import-keys.db');
    const store = new KeyStore(keysDb);
    const active = store.create({ tier: 'enterprise', name: 'old partner' });
    const gone = store.create({ tier: 'regular' });
    store.revoke(gone.key);
    store.close();
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
    const env = { REDIS_URL: redis.url, KEYS_DB: keysDb };

    expect(keysCli(['list'], env).stderr).toMatch(/holds 2 keys that are not in Redis.*keys -- import/);
    const first = keysCli(['import'], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/imported 2 keys .* \(0 were there already\)/);
    const again = keysCli(['import'], env);
    expect(again.stderr).toMatch(/imported 0 keys .* \(2 were there already\)/);
    expect(keysCli(['list'], env).stderr).not.toMatch(/not in Redis/);

    const keys = new RedisKeys(redis.url);
    try {
      expect(await keys.verify(active.key)).toEqual({ ok: true, key: { ...active.info } });
      expect(await keys.verify(gone.key)).toEqual({ ok: false, reason: 'revoked' });
      const next = await keys.create({ tier: 'regular' });
      expect(next.info.id).toBe(3);
    } finally {
      await keys.close();
    }
    expect(keysCli(['import'], { KEYS_DB: keysDb }).status).toBe(2); // no REDIS_URL: nothing to import into
  });
});
