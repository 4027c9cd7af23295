/**
 * The cap on searches running at once (SEARCH_MAX_IN_FLIGHT). A search with the
 * built-in embedder is a few milliseconds of CPU and rarely overlaps another; one
 * with an external embedder waits on the network (up to 30 s), so without a cap
 * slow embeddings would pile up requests, memory and sockets without bound.
 * A search that starts past the cap is answered 503 SERVICE_UNAVAILABLE with
 * Retry-After at once: none waits for a slot. Every search takes a slot through
 * the app context's `search`: /api/v1/search, /api/v1/providers with q, the MCP
 * search tool (through the search route) and /api/ai/recommend. With search
 * threads, searches wait for their turn in a FIFO before they start
 * (search-threads.ts) and take a slot only then. The app context holds the
 * process's one gate.
 */
import { ApiError } from './errors.ts';

const RETRY_AFTER_SECONDS = '1';

export class SearchGate {
  private running = 0;

  readonly maxInFlight: number;
  constructor(maxInFlight: number) {
    this.maxInFlight = maxInFlight;
  }

  /** Takes a slot for a search that starts now, or throws the 503 when none is free. */
  enter(): void {
    if (this.running >= this.maxInFlight) {
      throw new ApiError('SERVICE_UNAVAILABLE', `The server is running as many searches as it takes at once (${this.maxInFlight}); retry shortly.`, {
        'Retry-After': RETRY_AFTER_SECONDS,
      });
    }
    this.running++;
  }

  /** Gives back the slot of a search that answered or failed. */
  leave(): void {
    this.running--;
  }

  /** `search` in a slot of its own. */
  async run<T>(search: () => Promise<T>): Promise<T> {
    this.enter();
    try {
      return await search();
    } finally {
      this.leave();
    }
  }
}
