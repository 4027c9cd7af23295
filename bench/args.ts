/**
 * Command-line flags of `npm run bench`. Pure (argv in, options out) so the parsing
 * is unit-tested (the one input besides argv: the machine's cores, for --search-threads's
 * default); unknown flags and parts are errors with the usage line.
 */
import { parseArgs } from 'node:util';
import { serverSearchThreads } from '../src/env.ts';

export const PARTS = ['snapshot', 'search', 'orama', 'http', 'longtail', 'build', 'publish'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchOptions {
  providers: number;
  seed: number;
  parts: Set<Part>;
  queries: number;
  /** how many of the queries Orama answers (a stratified subset: it takes ~0.5 s each at 100k) */
  oramaQueries: number;
  httpSeconds: number;
  connections: number;
  /** distinct queries of the long-tail part */
  longTailQueries: number;
  /** seconds of each long-tail HTTP run */
  longTailSeconds: number;
  /** SERVE_PROCESSES of the server the long-tail HTTP runs measure */
  serveProcesses: number;
  /** SEARCH_THREADS of the server the long-tail HTTP runs measure */
  searchThreads: number;
  with1m: boolean;
  /** regenerate the dataset and rebuild the snapshot even when cached */
  fresh: boolean;
  out: string;
}

export const USAGE = `usage: npm run bench -- [--providers N] [--seed S] [--only ${PARTS.join(',')}] [--skip PARTS]
                       [--queries N] [--orama-queries N] [--http-seconds S] [--connections C]
                       [--long-tail-queries N] [--long-tail-seconds S] [--serve-processes N] [--search-threads N] [--with-1m] [--fresh] [--out FILE]`;

export class UsageError extends Error {}

function int(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number, got "${raw}"`);
  const n = Number.parseInt(raw, 10);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}`);
  return n;
}

function partList(raw: string): Part[] {
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!(PARTS as readonly string[]).includes(n)) throw new UsageError(`unknown part "${n}" (parts: ${PARTS.join(', ')})`);
  return names as Part[];
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        providers: { type: 'string' },
        seed: { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        queries: { type: 'string' },
        'orama-queries': { type: 'string' },
        'http-seconds': { type: 'string' },
        connections: { type: 'string' },
        'long-tail-queries': { type: 'string' },
        'long-tail-seconds': { type: 'string' },
        'serve-processes': { type: 'string' },
        'search-threads': { type: 'string' },
        'with-1m': { type: 'boolean' },
        fresh: { type: 'boolean' },
        out: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const parts = new Set<Part>(values.only ? partList(values.only) : PARTS);
  if (values.skip) for (const p of partList(values.skip)) parts.delete(p);
  const queries = int('queries', values.queries, 1000, 1);
  const serveProcesses = int('serve-processes', values['serve-processes'], 1, 1);
  return {
    providers: int('providers', values.providers, 100_000, 1),
    seed: int('seed', values.seed, 42, 0),
    parts,
    queries,
    oramaQueries: Math.min(queries, int('orama-queries', values['orama-queries'], 200, 1)),
    httpSeconds: int('http-seconds', values['http-seconds'], 10, 1),
    connections: int('connections', values.connections, 50, 1),
    longTailQueries: int('long-tail-queries', values['long-tail-queries'], 5000, 1),
    longTailSeconds: int('long-tail-seconds', values['long-tail-seconds'], 20, 1),
    serveProcesses,
    // Unset: what the server picks on this machine with the built-in embedder (src/env.ts serverSearchThreads), passed explicitly so the labels name it.
    searchThreads: int('search-threads', values['search-threads'], serverSearchThreads(serveProcesses, 'builtin'), 0),
    with1m: values['with-1m'] === true,
    fresh: values.fresh === true,
    out: values.out ?? 'bench/results/latest.json',
  };
}
