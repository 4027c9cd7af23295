/**
 * The server's V8 flags, given on its command line at its edge (scripts/serve.ts,
 * scripts/start.ts) by src/cli/start-variables.ts: V8 sizes a heap when it creates it,
 * so they must be there from the process's start. V8's flags belong to the process:
 * the search and verify threads run with them too. The builder keeps V8's defaults
 * (not measured there).
 *
 * --no-allocation-site-pretenuring. V8 watches the allocation site of each object and
 * array literal. When most of what a site allocated is still alive at a scavenge, V8
 * allocates that site's objects straight in the old generation from then on. A search
 * allocates in one burst: fusion's candidates (up to 300 objects), the parsed
 * parameters, the page and its answer. A scavenge that falls inside a burst finds all
 * of it alive, and the sites that made it were then allocated old and died old.
 * Measured under the long-tail load at 100,000 providers (2026-11-29, --trace-gc and
 * the sampling heap profiler): the main thread's old generation grew 6.9-7.1 MB a
 * scavenge (0.8 MB without pretenuring), 45% of it fusion's candidates; four
 * same-minute pairs read 1,403-1,573 against 1,376-1,441 req/s and RSS 520-546 against
 * 571-678 MB; at 1,000,000 providers RSS 1,358-1,375 against 1,418-1,424 MB.
 *
 * --max-semi-space-size=16 and --initial-old-space-size=256: fewer full collections
 * of the main thread. Without them V8 let the main thread's young generation grow to
 * 64 MB semi-spaces, and starts marking the old generation as soon as the room left
 * under its limit is less than the young generation's size. After a full collection
 * the old generation held 30-35 MB and its limit was 86-117 MB, so under the long-tail
 * load at 100,000 providers a full collection came every 1-4 s, and the slowest 1% of
 * requests came in its windows (2026-11-29, per-response completion times beside
 * --trace-gc: the five windows of 100 ms holding most of them each held one). The
 * initial size is also the least V8 lets the limit fall to, so the old generation
 * collects at about 200 MB: none in a 20 s load, one in about 40 s at full load. The
 * smaller young generation is collected more often, more cheaply, and holds 100 MB
 * less. Same-minute pairs against the server without the two (bench/results/history.md,
 * "Search threads and the HTTP tail"):
 * - 100,000 providers, cache off: 1,604 / 1,587 / 1,621 against 1,476 / 1,367 / 1,548
 *   req/s, p99 53 / 52 / 51 against 58 / 72 / 66 ms (the initial size alone);
 * - 1,000,000 providers, cache off: 563 / 582 against 530 / 570 req/s, p99 144 / 132
 *   against 151 / 141 ms, RSS 1,387-1,395 against 1,349-1,364 MB;
 * - 1,000,000 providers, default cache: RSS 1,470-1,475 against 1,479-1,482 MB after
 *   20 s, 1,481 against 1,505 MB after 90 s.
 */
export const SERVER_V8_FLAGS: readonly string[] = [
  '--no-allocation-site-pretenuring',
  '--max-semi-space-size=16',
  '--initial-old-space-size=256',
];
