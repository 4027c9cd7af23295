/**
 * The server's V8 setting, applied at its edge (scripts/serve.ts) before its modules
 * load. V8's flags belong to the process, so the search and verify threads run with it too.
 *
 * --no-allocation-site-pretenuring. V8 watches the allocation site of each object and
 * array literal. When most of what a site allocated is still alive at a scavenge, V8
 * allocates that site's objects straight in the old generation from then on. A search
 * allocates in one burst: fusion's candidates (up to 300 objects), the parsed
 * parameters, the page and its answer. A scavenge that falls inside a burst finds all
 * of it alive, and the sites that made it were then allocated old and died old.
 * Measured under the long-tail load at 100,000 providers (2026-11-29, --trace-gc and
 * the sampling heap profiler):
 * - the main thread's old generation grew 6.9-7.1 MB a scavenge (0.8 MB without
 *   pretenuring);
 * - 45% of what reached it was fusion's candidates, 10% zod's parsed parameters;
 * - its scavenges took 4.7-4.9 ms (2.8-3.0 ms without).
 * Same-minute pairs against the same server without this setting, 15 s of the long-tail load:
 * - 100,000 providers, four pairs: 1,403-1,573 req/s against 1,376-1,441 (higher in
 *   three pairs); 1.12-1.26 against 1.22-1.29 ms of CPU a request; RSS 520-546
 *   against 571-678 MB.
 * - 1,000,000 providers, three pairs: req/s the same within the noise (507-528 against
 *   517-529); RSS 1,358-1,375 against 1,418-1,424 MB. The search thread's full
 *   collections fell from 20-24 to 1-6 a run.
 * Figures: bench/results/README.md, "The session of 2026-11-29 05:19".
 */
import v8 from 'node:v8';

export function tuneServerHeap(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
