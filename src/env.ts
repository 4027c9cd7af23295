/**
 * Settings (CONTRACT.md section 2), parsed once with zod. `loadEnv()` throws a
 * readable error naming each bad variable; entry points print it and exit.
 */
import * as z from 'zod';
import path from 'node:path';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DIRECTORY_DB: z.string().min(1).optional(),
  KEYS_DB: z.string().min(1).default('data/keys.db'),
  PUBLIC_WEB_URL: z.url().default('http://localhost:4321'),
  PUBLIC_API_URL: z.url().optional(),
  INDEXNOW_KEY: z
    .string()
    .regex(/^[a-zA-Z0-9-]{8,128}$/, 'must be 8-128 characters of a-z, A-Z, 0-9 or -')
    .optional(),
  REDIS_URL: z.string().min(1).optional(),
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  STATIC_ROOT: z.string().min(1).optional(),
  ASTRO_OUT_DIR: z.string().min(1).default('dist'),
  API_RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65_536).default(64),
});

export interface Env {
  port: number;
  host: string;
  /** Absolute path of the snapshot. */
  directoryDb: string;
  /** True when DIRECTORY_DB was set explicitly (then nothing may overwrite it). */
  directoryDbExplicit: boolean;
  keysDb: string;
  publicWebUrl: string;
  publicApiUrl: string;
  indexNowKey: string | undefined;
  redisUrl: string | undefined;
  mcpAllowedOrigins: string[];
  /** `astro build` output (client/ and server/); ASTRO_OUT_DIR, default dist. */
  distDir: string;
  /** Folder of the pre-rendered client output served by the Node server. */
  staticRoot: string;
  /** Budget of the in-process cache of public API answers, in MB (src/server/response-cache.ts); 0 disables it. */
  apiResponseCacheMb: number;
}

export const DEFAULT_DIRECTORY_DB = 'data/directory.db';

const stripSlash = (u: string) => u.replace(/\/+$/, '');

export function loadEnv(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const webUrl = stripSlash(e.PUBLIC_WEB_URL);
  return {
    port: e.PORT,
    host: e.HOST,
    directoryDb: path.resolve(cwd, e.DIRECTORY_DB ?? DEFAULT_DIRECTORY_DB),
    directoryDbExplicit: e.DIRECTORY_DB !== undefined,
    keysDb: path.resolve(cwd, e.KEYS_DB),
    publicWebUrl: webUrl,
    publicApiUrl: stripSlash(e.PUBLIC_API_URL ?? webUrl),
    indexNowKey: e.INDEXNOW_KEY,
    redisUrl: e.REDIS_URL,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    distDir: path.resolve(cwd, e.ASTRO_OUT_DIR),
    staticRoot: path.resolve(cwd, e.STATIC_ROOT ?? path.join(e.ASTRO_OUT_DIR, 'client')),
    apiResponseCacheMb: e.API_RESPONSE_CACHE_MB,
  };
}
