/**
 * The cap on searches running at once (SEARCH_MAX_IN_FLIGHT). A search with the
 * built-in embedder is a few milliseconds of CPU and rarely overlaps another; one
 * with an external embedder waits on the network (up to 30 s), so without a cap
 * slow embeddings would pile up requests, memory and sockets without bound.
 * Past the cap the answer is 503 SERVICE_UNAVAILABLE with Retry-After at once:
 * there is no queue. Every search path takes a slot: /api/v1/search,
 * /api/v1/providers with q, the MCP search tool (through the search route) and
 * /api/ai/recommend. The app context holds the process's one gate.
 */
import { ApiError } from './errors.ts';

const RETRY_AFTER_SECONDS = '1';

export class SearchGate {
  private running = 0;

  readonly maxInFlight: number;
  constructor(maxInFlight: number) {
    this.maxInFlight = maxInFlight;
  }

  async run<T>(search: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxInFlight) {
      throw new ApiError('SERVICE_UNAVAILABLE', `The server is running as many searches as it takes at once (${this.maxInFlight}); retry shortly.`, {
        'Retry-After': RETRY_AFTER_SECONDS,
      });
    }
    this.running++;
    try {
      return await search();
    } finally {
      this.running--;
    }
  }

  inFlight(): number {
    return this.running;
  }
}
