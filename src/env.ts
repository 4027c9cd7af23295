/**
 * Settings (docs/settings.md), parsed once with zod: every variable the
 * project reads, and the only place that reads the environment. The entry points
 * (scripts/*.ts, astro.config.mjs) call `loadEnv()` and pass the result down, in
 * the server and the site inside the app context (src/server/context.ts).
 * `loadEnv()` throws a readable error naming each bad variable; entry points print
 * it and exit.
 */
import * as z from 'zod';
import os from 'node:os';
import path from 'node:path';

/** The live site's symlink of `npm run rebuild` and of a node following an origin, when STATIC_ROOT is unset. */
export const DEFAULT_LIVE_STATIC_ROOT = 'releases/current';

/** The sitemaps.org limit of URLs per sitemap file. */
export const SITEMAP_PROTOCOL_MAX = 50_000;

/** An origin a CSP source list may name: scheme, host (optionally `*.` first) and port, nothing else. */
const CSP_ORIGIN = /^https?:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/i;
/** HSTS max-age by default: two years, the HSTS preload list's recommendation. */
const HSTS_TWO_YEARS = 63_072_000;
const HSTS_MAX_AGE_LIMIT = 10 * 365 * 86_400;

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
  SERVE_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  SEARCH_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  // Limits and abuse (docs/operations.md, "Limits and abuse")
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(300),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  SEARCH_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(32),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Response security headers (docs/security.md): extra connect-src origins of the pages' CSP, and HSTS
  CSP_CONNECT_SRC: z
    .string()
    .default('')
    .transform((s) => s.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.string().regex(CSP_ORIGIN, 'each entry must be an origin such as https://api.example.com or https://*.example.com (no path, quote or wildcard alone)'))),
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(HSTS_MAX_AGE_LIMIT).default(HSTS_TWO_YEARS),
  // Test hook of whole-server tests: pins the rate limiter's clock (epoch ms) so a
  // test's requests all fall in one window however long they take. Never set in production.
  RATE_LIMIT_CLOCK_MS: z.coerce.number().int().positive().optional(),
  // Release rendering (src/ops): where releases live, and the incremental build's scope files (src/site/render-scope.ts)
  RELEASES_DIR: z.string().min(1).default('releases'),
  RENDER_SCOPE_FILE: z.string().min(1).optional(),
  RENDER_MANIFEST_DIR: z.string().min(1).optional(),
  // Many nodes (docs/operations.md, "Many nodes"): the folder rebuild/rollback publish each release to,
  // the URL a node follows (that folder, served by any static web server or CDN), and how often it asks.
  RELEASE_ORIGIN_DIR: z.string().min(1).optional(),
  RELEASE_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  RELEASE_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** Sitemap split threshold (tests set it low); the protocol's own cap is 50,000. */
  SITEMAP_MAX_URLS: z.coerce.number().int().min(1).default(SITEMAP_PROTOCOL_MAX).transform((n) => Math.min(n, SITEMAP_PROTOCOL_MAX)),
  ASTRO_SERVER_ENTRY: z.string().min(1).optional(),
  // The embedder (src/snapshot/embedder-config.ts): EMBEDDER_URL + EMBEDDER_MODEL name an
  // OpenAI-compatible /v1/embeddings service; neither set means the built-in one.
  EMBEDDER_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  EMBEDDER_MODEL: z.string().trim().min(1).optional(),
  EMBEDDER_API_KEY: z.string().min(1).optional(),
  EMBEDDER_DIMS: z.coerce.number().int().min(1).max(8192).optional(),
  EMBEDDER_QUERY_PREFIX: z.string().default(''),
  EMBEDDER_DOCUMENT_PREFIX: z.string().default(''),
  EMBEDDER_QUERY_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  EMBEDDER_QUERY_CACHE: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  EMBEDDER_RETRY_AFTER_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
})
  .refine((e) => (e.EMBEDDER_URL === undefined) === (e.EMBEDDER_MODEL === undefined), {
    message: 'EMBEDDER_URL and EMBEDDER_MODEL go together: set both for an external embedder, or neither for the built-in one',
    path: ['EMBEDDER_MODEL'],
  })
  .refine((e) => e.RELEASE_ORIGIN === undefined || e.SERVE_PROCESSES === 1, {
    message: 'a node that follows RELEASE_ORIGIN runs one server process (SERVE_PROCESSES=1; SEARCH_THREADS uses the second core)',
    path: ['RELEASE_ORIGIN'],
  });

/**
 * Variables where an empty value counts as unset, as in most shells' `VAR= cmd`
 * (the embedder prefixes are not among them: a prefix is taken as written).
 */
const EMPTY_IS_UNSET = [
  'STATIC_ROOT',
  'RATE_LIMIT_CLOCK_MS',
  'RELEASES_DIR',
  'RENDER_SCOPE_FILE',
  'RENDER_MANIFEST_DIR',
  'RELEASE_ORIGIN_DIR',
  'RELEASE_ORIGIN',
  'RELEASE_POLL_INTERVAL_MS',
  'SITEMAP_MAX_URLS',
  'ASTRO_SERVER_ENTRY',
  'EMBEDDER_URL',
  'EMBEDDER_MODEL',
  'EMBEDDER_API_KEY',
  'EMBEDDER_DIMS',
  'EMBEDDER_QUERY_TIMEOUT_MS',
  'EMBEDDER_QUERY_CACHE',
  'EMBEDDER_RETRY_AFTER_MS',
  'HSTS_MAX_AGE',
];

export type LogLevel = z.output<typeof EnvSchema>['LOG_LEVEL'];

/** Which embedder this process uses: the built-in one (its model lives in the snapshot) or an external service. */
export type EmbedderConfig =
  | { kind: 'builtin' }
  | {
      kind: 'http';
      url: string;
      model: string;
      apiKey: string | undefined;
      dims: number | undefined;
      /** prepended to every query text ("query: " for e5, "search_query: " for nomic) */
      queryPrefix: string;
      /** prepended to every document text at build time ("passage: ", "search_document: ") */
      documentPrefix: string;
      /** a query's embedding request gives up after this long; search then answers from the keyword side */
      queryTimeoutMs: number;
      /** query vectors kept (least recently used out first); 0 keeps none */
      queryCacheEntries: number;
      /** after a failed query request, the service is not asked again for this long */
      retryAfterMs: number;
    };

/** What an operator may change in the response security headers (src/web/security-headers.ts). */
export interface SecurityHeaderSettings {
  /** Origins added to the pages' CSP connect-src (CSP_CONNECT_SRC); the site's own origin is always there. */
  connectSrc: string[];
  /** Strict-Transport-Security max-age in seconds (HSTS_MAX_AGE); 0 sends no HSTS header (a staging host without TLS). */
  hstsMaxAge: number;
}

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
  /** Server processes `npm run serve` runs on the one port (scripts/serve.ts); 1 runs no cluster primary. */
  serveProcesses: number;
  /**
   * Worker threads that run searches beside the main thread (src/server/search-threads.ts); 0 searches on
   * the main thread only. Unset, 0 here and the server's choice in `forServer`.
   */
  searchThreads: number;
  /** True when SEARCH_THREADS was set explicitly. */
  searchThreadsExplicit: boolean;
  /** Requests per minute per client address on the public routes (unkeyed); 0 turns the limit off. */
  publicRateLimitPerMinute: number;
  /** How many proxy hops in front of the node to trust in X-Forwarded-For (0: the socket's address is the client). */
  trustProxyHops: number;
  /** Searches running at once (REST, MCP, AI); one more is answered 503 with Retry-After. */
  searchMaxInFlight: number;
  /** node:http timeouts: whole header section, whole request, idle keep-alive connection. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** True when STATIC_ROOT was set explicitly (a release rebuild otherwise serves releases/current). */
  staticRootExplicit: boolean;
  logLevel: LogLevel;
  /** RATE_LIMIT_CLOCK_MS: the rate limiter's pinned clock (tests only), else undefined (the system clock). */
  rateLimitClockMs: number | undefined;
  /** Folder of the rendered releases (src/ops). */
  releasesDir: string;
  /** Incremental rendering: the URL paths to render (JSON array), and where to record every path a route would render. */
  renderScopeFile: string | undefined;
  renderManifestDir: string | undefined;
  /** RELEASE_ORIGIN_DIR (absolute): rebuild and rollback publish the live release there; undefined: they do not publish. */
  releaseOriginDir: string | undefined;
  /** RELEASE_ORIGIN: the origin this node follows (src/ops/origin-follow.ts), without a trailing slash; undefined: it serves DIRECTORY_DB as it is. */
  releaseOrigin: string | undefined;
  /** How often a following node asks the origin for its manifest. */
  releasePollMs: number;
  sitemapMaxUrls: number;
  /** The Astro server bundle to serve pages with, when set (tests point it at nothing to serve the API only). */
  astroServerEntry: string | undefined;
  embedder: EmbedderConfig;
  securityHeaders: SecurityHeaderSettings;
}

const DEFAULT_DIRECTORY_DB = 'data/directory.db';

const stripSlash = (u: string) => u.replace(/\/+$/, '');

export function loadEnv(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Env {
  const present = { ...source };
  for (const name of EMPTY_IS_UNSET) if (present[name] === '') delete present[name];
  const parsed = EnvSchema.safeParse(present);
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
    // A node following an origin serves the site of the release it installed, where npm run rebuild puts it.
    staticRoot: path.resolve(cwd, e.STATIC_ROOT ?? (e.RELEASE_ORIGIN ? DEFAULT_LIVE_STATIC_ROOT : path.join(e.ASTRO_OUT_DIR, 'client'))),
    apiResponseCacheMb: e.API_RESPONSE_CACHE_MB,
    serveProcesses: e.SERVE_PROCESSES,
    searchThreads: e.SEARCH_THREADS ?? 0,
    searchThreadsExplicit: e.SEARCH_THREADS !== undefined,
    publicRateLimitPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE,
    trustProxyHops: e.TRUST_PROXY,
    searchMaxInFlight: e.SEARCH_MAX_IN_FLIGHT,
    httpTimeouts: { headersMs: e.HTTP_HEADERS_TIMEOUT_MS, requestMs: e.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS },
    staticRootExplicit: e.STATIC_ROOT !== undefined,
    logLevel: e.LOG_LEVEL,
    rateLimitClockMs: e.RATE_LIMIT_CLOCK_MS,
    releasesDir: path.resolve(cwd, e.RELEASES_DIR),
    renderScopeFile: e.RENDER_SCOPE_FILE,
    renderManifestDir: e.RENDER_MANIFEST_DIR,
    releaseOriginDir: e.RELEASE_ORIGIN_DIR === undefined ? undefined : path.resolve(cwd, e.RELEASE_ORIGIN_DIR),
    releaseOrigin: e.RELEASE_ORIGIN === undefined ? undefined : stripSlash(e.RELEASE_ORIGIN),
    releasePollMs: e.RELEASE_POLL_INTERVAL_MS,
    sitemapMaxUrls: e.SITEMAP_MAX_URLS,
    astroServerEntry: e.ASTRO_SERVER_ENTRY === undefined ? undefined : path.resolve(cwd, e.ASTRO_SERVER_ENTRY),
    embedder: embedderConfig(e),
    securityHeaders: { connectSrc: e.CSP_CONNECT_SRC, hstsMaxAge: e.HSTS_MAX_AGE },
  };
}

function embedderConfig(e: z.output<typeof EnvSchema>): EmbedderConfig {
  if (e.EMBEDDER_URL === undefined || e.EMBEDDER_MODEL === undefined) return { kind: 'builtin' };
  return {
    kind: 'http',
    url: e.EMBEDDER_URL,
    model: e.EMBEDDER_MODEL,
    apiKey: e.EMBEDDER_API_KEY,
    dims: e.EMBEDDER_DIMS,
    queryPrefix: e.EMBEDDER_QUERY_PREFIX,
    documentPrefix: e.EMBEDDER_DOCUMENT_PREFIX,
    queryTimeoutMs: e.EMBEDDER_QUERY_TIMEOUT_MS,
    queryCacheEntries: e.EMBEDDER_QUERY_CACHE,
    retryAfterMs: e.EMBEDDER_RETRY_AFTER_MS,
  };
}

/**
 * SEARCH_THREADS when unset, in a server (`npm run serve`, `npm start`): one search
 * thread when the machine has a core to spare for it, the node runs one process
 * (SERVE_PROCESSES=1) and queries are embedded in process (the built-in embedder),
 * else none. Measured on two cores with the long-tail load (bench/results/history.md):
 * 1,203-1,204 against 677-929 req/s at 100,000 providers, 422-530 against 299-371 at
 * 1,000,000, for 60-250 MB more memory (1,489-1,517 MB at 1,000,000, within the 1.5 GB
 * budget). With an external embedder a search mostly waits on the network, and each
 * thread would keep its own query-vector cache and its own pause after a failure. The
 * static build, `astro dev` and in-process tests never search under load, so they
 * start no thread unless it is set.
 */
export function serverSearchThreads(serveProcesses: number, embedder: EmbedderConfig['kind'], cores = os.availableParallelism()): number {
  return serveProcesses === 1 && embedder === 'builtin' && cores >= 2 ? 1 : 0;
}

/** The settings of a server process: SEARCH_THREADS unset becomes `serverSearchThreads`. */
export function forServer(env: Env): Env {
  return env.searchThreadsExplicit ? env : { ...env, searchThreads: serverSearchThreads(env.serveProcesses, env.embedder.kind) };
}
