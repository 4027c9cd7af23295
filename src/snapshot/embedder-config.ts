/**
 * The embedder the settings name (src/env.ts parses EMBEDDER_* into an EmbedderConfig):
 *   EMBEDDER_URL + EMBEDDER_MODEL -> an OpenAI-compatible /v1/embeddings service, name `openai:<model>`;
 *   neither set -> the built-in embedder (its model lives inside the snapshot).
 *
 *   configuredEmbedderName(config) -> "builtin-lsa-v1" | "openai:<model>"
 *   assertEmbedderMatches(configured, snapshotMeta)      (throws EmbedderMismatchError)
 *   openQueryEmbedder(db, snapshotMeta, config) -> the embedder for queries against that snapshot
 */
import type Database from 'better-sqlite3';
import type { EmbedderConfig } from '../env.ts';
import { EmbedderMismatchError, type Embedder } from './embedder.ts';
import { loadModel, type BuiltinEmbedder } from './embedder-builtin.ts';
import { BUILTIN_EMBEDDER_NAME } from './embedder-builtin-model.ts';
import { HttpEmbedder } from './embedder-http.ts';

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
  config: EmbedderConfig,
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
export async function openBuildEmbedder(config: EmbedderConfig): Promise<Embedder | null> {
  if (config.kind === 'builtin') return null;
  return HttpEmbedder.connect(httpOptions(config));
}
