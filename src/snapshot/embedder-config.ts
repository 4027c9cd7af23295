/**
 * Which embedder this process uses, from the environment:
 *   EMBEDDER_URL + EMBEDDER_MODEL (+ optional EMBEDDER_API_KEY, EMBEDDER_DIMS,
 *   EMBEDDER_QUERY_PREFIX, EMBEDDER_DOCUMENT_PREFIX, EMBEDDER_QUERY_TIMEOUT_MS, EMBEDDER_QUERY_CACHE,
 *   EMBEDDER_RETRY_AFTER_MS)
 *     -> an OpenAI-compatible /v1/embeddings service, name `openai:<model>`;
 *   neither set -> the built-in embedder (its model lives inside the snapshot).
 *
 *   readEmbedderConfig(env) -> EmbedderConfig            (throws a readable error on bad settings)
 *   configuredEmbedderName(config) -> "builtin-lsa-v1" | "openai:<model>"
 *   assertEmbedderMatches(configured, snapshotMeta)      (throws EmbedderMismatchError)
 *   openQueryEmbedder(db, snapshotMeta, config) -> the embedder for queries against that snapshot
 */
import * as z from 'zod';
import type Database from 'better-sqlite3';
import { EmbedderMismatchError, type Embedder } from './embedder.ts';
import { loadModel, type BuiltinEmbedder } from './embedder-builtin.ts';
import { BUILTIN_EMBEDDER_NAME } from './embedder-builtin-model.ts';
import { HttpEmbedder } from './embedder-http.ts';

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

const EmbedderEnvSchema = z
  .object({
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
  });

export function readEmbedderConfig(env: NodeJS.ProcessEnv = process.env): EmbedderConfig {
  // Empty strings count as unset, as they do in most shells' `VAR= cmd`.
  const present = (k: string) => (env[k] === undefined || env[k] === '' ? undefined : env[k]);
  const parsed = EmbedderEnvSchema.safeParse({
    EMBEDDER_URL: present('EMBEDDER_URL'),
    EMBEDDER_MODEL: present('EMBEDDER_MODEL'),
    EMBEDDER_API_KEY: present('EMBEDDER_API_KEY'),
    EMBEDDER_DIMS: present('EMBEDDER_DIMS'),
    // A prefix may end in a space ("query: "), so it is taken as written.
    EMBEDDER_QUERY_PREFIX: env.EMBEDDER_QUERY_PREFIX,
    EMBEDDER_DOCUMENT_PREFIX: env.EMBEDDER_DOCUMENT_PREFIX,
    EMBEDDER_QUERY_TIMEOUT_MS: present('EMBEDDER_QUERY_TIMEOUT_MS'),
    EMBEDDER_QUERY_CACHE: present('EMBEDDER_QUERY_CACHE'),
    EMBEDDER_RETRY_AFTER_MS: present('EMBEDDER_RETRY_AFTER_MS'),
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid embedder settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
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

export function configuredEmbedderName(config: EmbedderConfig): string {
  return config.kind === 'builtin' ? BUILTIN_EMBEDDER_NAME : `openai:${config.model}`;
}

/** Refuses to query a snapshot with vectors from another embedder (their spaces do not compare). */
export function assertEmbedderMatches(
  configured: { name: string; dims: number },
  snapshotMeta: { name: string; dims: number },
): void {
  if (configured.name !== snapshotMeta.name || configured.dims !== snapshotMeta.dims) {
    throw new EmbedderMismatchError(configured, snapshotMeta);
  }
}

/**
 * The query-side embedder for a snapshot: the built-in model stored in it, or the
 * configured service (no request is made here: dims come from the snapshot, and
 * every answer is checked against them).
 */
export async function openQueryEmbedder(
  db: Database.Database,
  snapshotMeta: { name: string; dims: number },
  config: EmbedderConfig = readEmbedderConfig(),
): Promise<BuiltinEmbedder | HttpEmbedder> {
  if (config.kind === 'builtin') {
    if (snapshotMeta.name !== BUILTIN_EMBEDDER_NAME) {
      throw new EmbedderMismatchError({ name: BUILTIN_EMBEDDER_NAME, dims: snapshotMeta.dims }, snapshotMeta);
    }
    const embedder = loadModel(db);
    if (!embedder) throw new Error(`the snapshot says "${BUILTIN_EMBEDDER_NAME}" built it but holds no embedder_model; rebuild it`);
    assertEmbedderMatches(embedder, snapshotMeta);
    return embedder;
  }
  const dims = config.dims ?? snapshotMeta.dims;
  assertEmbedderMatches({ name: configuredEmbedderName(config), dims }, snapshotMeta);
  return HttpEmbedder.connect({ ...httpOptions(config), dims });
}

const httpOptions = (config: Extract<EmbedderConfig, { kind: 'http' }>) => ({
  url: config.url,
  model: config.model,
  apiKey: config.apiKey,
  dims: config.dims,
  queryPrefix: config.queryPrefix,
  documentPrefix: config.documentPrefix,
  queryTimeoutMs: config.queryTimeoutMs,
});

/** The embedder a snapshot build uses when it is external; null means "fit the built-in one". */
export async function openBuildEmbedder(config: EmbedderConfig = readEmbedderConfig()): Promise<Embedder | null> {
  if (config.kind === 'builtin') return null;
  return HttpEmbedder.connect(httpOptions(config));
}
