/**
 * Settings (the README's settings table), parsed once with zod. `loadEnv()` throws a
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
  // Limits and abuse (docs/operations.md, "Limits and abuse")
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(300),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  SEARCH_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(32),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
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
  /** Requests per minute per client address on the public routes (unkeyed); 0 turns the limit off. */
  publicRateLimitPerMinute: number;
  /** How many proxy hops in front of the node to trust in X-Forwarded-For (0: the socket's address is the client). */
  trustProxyHops: number;
  /** Searches running at once (REST, MCP, AI); one more is answered 503 with Retry-After. */
  searchMaxInFlight: number;
  /** node:http timeouts: whole header section, whole request, idle keep-alive connection. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
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
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    trustProxyHops: e.TRUST_PROXY,
    searchMaxInFlight: e.SEARCH_MAX_IN_FLIGHT,
    httpTimeouts: { headersMs: e.HTTP_HEADERS_TIMEOUT_MS, requestMs: e.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS },
  };
}
