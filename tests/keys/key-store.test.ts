/** The key lifecycle over a real KEYS_DB file, and the `npm run keys` CLI as an operator runs it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { KEY_PREFIX, hashKey } from '../../src/keys/key-format.ts';
import { KeyStore } from '../../src/keys/key-store.ts';

const tempDb = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pd-keystore-')), 'keys.db');

describe('KeyStore', () => {
  it('creates a high-entropy prefixed key and stores only its SHA-256 hash', () => {
    const file = tempDb();
    const store = new KeyStore(file);
    const { key, info } = store.create({ tier: 'regular', name: 'ci' });
    expect(key).toMatch(/^pdk_live_[A-Za-z0-9_-]{43}$/);
    expect(info.prefix).toBe(key.slice(0, KEY_PREFIX.length + 8));
    store.close();

    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    raw.close();
    expect(rows).toHaveLength(1);
    const secretPart = key.slice(KEY_PREFIX.length + 8);
    for (const value of Object.values(rows[0]!)) {
      const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
      expect(text).not.toContain(secretPart);
    }
    expect(Buffer.compare(rows[0]!.key_hash as Buffer, hashKey(key))).toBe(0);
    // The file as a whole holds no secret either (WAL included).
    const bytes = fs.readdirSync(path.dirname(file)).map((f) => fs.readFileSync(path.join(path.dirname(file), f)).toString('latin1'));
    for (const b of bytes) expect(b).not.toContain(secretPart);
  });

  it('verifies the key, refuses a near miss, an expired key and a revoked key', () => {
    const store = new KeyStore(tempDb());
    const { key } = store.create({ tier: 'enterprise', expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(store.verify(key, new Date('2029-12-31T23:59:59Z'))).toMatchObject({ ok: true, key: { tier: 'enterprise' } });
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(store.verify(flipped)).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verify('not-a-key')).toEqual({ ok: false, reason: 'unknown' });
    expect(store.verify(key, new Date('2030-01-01T00:00:00Z'))).toEqual({ ok: false, reason: 'expired' });

    const result = store.revoke(key.slice(0, KEY_PREFIX.length + 6));
    expect(result.ok).toBe(true);
    expect(store.verify(key, new Date('2029-01-01T00:00:00Z'))).toEqual({ ok: false, reason: 'revoked' });
    store.close();
  });

  it('refuses to revoke with a prefix that names several keys', () => {
    const store = new KeyStore(tempDb());
    const a = store.create({ tier: 'regular' });
    const b = store.create({ tier: 'regular' });
    const result = store.revoke(KEY_PREFIX);
    expect(result).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(store.verify(a.key).ok && store.verify(b.key).ok).toBe(true);
    expect(store.revoke('pdk_live_nothing-like-this')).toEqual({ ok: false, reason: 'not_found' });
    store.close();
  });
});

describe('npm run keys', () => {
  const run = (args: string[], keysDb: string) =>
    spawnSync(process.execPath, ['scripts/keys.ts', ...args], { env: { ...process.env, KEYS_DB: keysDb }, encoding: 'utf8' });

  it('create prints the key alone on stdout; list never shows it; revoke takes the prefix', () => {
    const keysDb = tempDb();
    const created = run(['create', '--tier', 'enterprise', '--name', 'partner A', '--expires', '2031-05-01'], keysDb);
    expect(created.status).toBe(0);
    const key = created.stdout.trim();
    expect(created.stdout).toBe(`${key}\n`);
    expect(key).toMatch(/^pdk_live_[A-Za-z0-9_-]{43}$/);

    const listed = run(['list'], keysDb);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(key.slice(0, 17));
    expect(listed.stdout).toContain('enterprise');
    expect(listed.stdout).toContain('2031-05-01');
    expect(listed.stdout).not.toContain(key.slice(17));

    expect(run(['create', '--tier', 'gold'], keysDb).status).toBe(2);
    expect(run(['create', '--tier', 'regular', '--expires', 'tomorrow'], keysDb).status).toBe(2);

    const revoked = run(['revoke', key.slice(0, 17)], keysDb);
    expect(revoked.status).toBe(0);
    expect(run(['list'], keysDb).stdout).toMatch(/revoked/);
    const store = new KeyStore(keysDb);
    expect(store.verify(key)).toEqual({ ok: false, reason: 'revoked' });
    store.close();
  });

  it('revoke refuses an ambiguous prefix and changes nothing', () => {
    const keysDb = tempDb();
    const store = new KeyStore(keysDb);
    // Two keys whose lookup prefixes share 4 characters, written as the store writes them.
    const a = store.create({ tier: 'regular' });
    const b = store.create({ tier: 'regular' });
    store.close();
    const raw = new Database(keysDb);
    raw.prepare("UPDATE api_keys SET lookup_prefix = 'pdk_live_Same' || substr(lookup_prefix, 14)").run();
    raw.close();
    const result = run(['revoke', 'pdk_live_Same'], keysDb);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/matches 2 keys/);
    const after = new KeyStore(keysDb);
    expect(after.list().every((k) => k.revokedAt === null)).toBe(true);
    after.close();
    expect(a.key).not.toBe(b.key);
  });
});

