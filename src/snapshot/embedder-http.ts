/**
 * An external embedder: any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI,
 * a local Ollama, Hugging Face TEI, vLLM...). POST {model, input: string[]} ->
 * {data: [{embedding: number[], index}]}. Batched, with a timeout per request;
 * vectors are L2-normalized here, whatever the service returns.
 *
 *   const embedder = await HttpEmbedder.connect({ url, model, apiKey? , dims? })
 *   embedder.name === `openai:${model}`; embedder.dims from `dims` or the first response.
 */
import * as z from 'zod';
import type { Embedder } from './embedder.ts';

export interface HttpEmbedderOptions {
  /** Base URL ("http://localhost:11434", ".../v1") or the full ".../v1/embeddings". */
  url: string;
  model: string;
  apiKey?: string | undefined;
  /** Expected dimensions; discovered from a probe request when omitted. */
  dims?: number | undefined;
  batchSize?: number;
  /** per request at build time (document batches); 30 s by default */
  timeoutMs?: number;
  /** per query request; 30 s by default (the query side sets EMBEDDER_QUERY_TIMEOUT_MS) */
  queryTimeoutMs?: number;
  /** prepended to each query / document text: models such as e5 and nomic are trained with them */
  queryPrefix?: string;
  documentPrefix?: string;
}

/** A failure talking to the embedding service; the message says what and where. */
export class EmbedderServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderServiceError';
  }
}

const EmbeddingsResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative() })),
});

/** ".../v1/embeddings" from whatever form of the URL an operator wrote. */
export function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.endsWith('/embeddings')) return trimmed;
  if (trimmed.endsWith('/v1')) return `${trimmed}/embeddings`;
  return `${trimmed}/v1/embeddings`;
}

export class HttpEmbedder implements Embedder {
  readonly name: string;
  readonly endpoint: string;
  private knownDims: number | undefined;

  private readonly options: HttpEmbedderOptions;
  private constructor(options: HttpEmbedderOptions) {
    this.options = options;
    this.name = `openai:${options.model}`;
    this.endpoint = embeddingsEndpoint(options.url);
    this.knownDims = options.dims;
  }

  /** Creates the client; without configured dims, asks the service once to learn them. */
  static async connect(options: HttpEmbedderOptions): Promise<HttpEmbedder> {
    const embedder = new HttpEmbedder(options);
    if (embedder.knownDims === undefined) await embedder.embedQuery('dimension probe');
    return embedder;
  }

  get dims(): number {
    if (this.knownDims === undefined) throw new Error('HttpEmbedder: dims unknown; create it with HttpEmbedder.connect');
    return this.knownDims;
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    const batchSize = this.options.batchSize ?? 64;
    const prefix = this.options.documentPrefix ?? '';
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize).map((t) => prefix + t);
      out.push(...(await this.request(batch, this.options.timeoutMs ?? 30_000)));
    }
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.request([(this.options.queryPrefix ?? '') + text], this.options.queryTimeoutMs ?? 30_000);
    return vector!;
  }

  private async request(input: string[], timeoutMs: number): Promise<Float32Array[]> {
    const where = `embedding service ${this.endpoint} (model "${this.options.model}")`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.options.model, input }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : `unreachable (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)})`;
      throw new EmbedderServiceError(`${where}: ${reason}`);
    }
    const body = await response.text();
    if (!response.ok) {
      throw new EmbedderServiceError(`${where}: HTTP ${response.status}: ${body.slice(0, 300)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new EmbedderServiceError(`${where}: the answer is not JSON: ${body.slice(0, 200)}`);
    }
    const parsed = EmbeddingsResponseSchema.safeParse(json);
    if (!parsed.success) {
      throw new EmbedderServiceError(`${where}: unexpected answer shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    }
    const items = [...parsed.data.data].sort((a, b) => a.index - b.index);
    if (items.length !== input.length || items.some((item, i) => item.index !== i)) {
      throw new EmbedderServiceError(`${where}: sent ${input.length} texts, got ${items.length} embeddings`);
    }
    return items.map((item) => this.normalized(item.embedding, where));
  }

  private normalized(embedding: number[], where: string): Float32Array {
    if (this.knownDims === undefined) this.knownDims = embedding.length;
    if (embedding.length !== this.knownDims || embedding.length === 0) {
      throw new EmbedderServiceError(`${where}: got a ${embedding.length}-dimension vector, expected ${this.knownDims}`);
    }
    let norm = 0;
    for (const x of embedding) {
      if (!Number.isFinite(x)) throw new EmbedderServiceError(`${where}: the vector holds a non-finite number`);
      norm += x * x;
    }
    const out = new Float32Array(embedding.length);
    if (norm === 0) return out;
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < embedding.length; i++) out[i] = embedding[i]! * inv;
    return out;
  }
}
