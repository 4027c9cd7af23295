import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../../bench/args.ts';
import { serverSearchThreads } from '../../src/env.ts';

describe('parseBenchArgs', () => {
  it('defaults to every part at 100,000 providers', () => {
    const o = parseBenchArgs([]);
    expect(o.providers).toBe(100_000);
    expect([...o.parts].sort()).toEqual(['build', 'http', 'longtail', 'orama', 'publish', 'search', 'snapshot']);
    expect(o).toMatchObject({ queries: 1000, connections: 50, httpSeconds: 10, with1m: false, longTailQueries: 5000, longTailSeconds: 20, serveProcesses: 1 });
    expect(parseBenchArgs(['--serve-processes', '2']).serveProcesses).toBe(2);
    expect(() => parseBenchArgs(['--serve-processes', '0'])).toThrow(UsageError);
    // unset: what the server picks on this machine for its process count
    expect(parseBenchArgs([]).searchThreads).toBe(serverSearchThreads(1, 'builtin'));
    expect(parseBenchArgs(['--serve-processes', '2']).searchThreads).toBe(0);
    expect(parseBenchArgs(['--search-threads', '0']).searchThreads).toBe(0);
    expect(parseBenchArgs(['--search-threads', '1']).searchThreads).toBe(1);
    expect(() => parseBenchArgs(['--search-threads', 'x'])).toThrow(UsageError);
  });

  it('runs only the parts asked for, minus the skipped ones', () => {
    expect([...parseBenchArgs(['--only', 'search,http']).parts]).toEqual(['search', 'http']);
    expect([...parseBenchArgs(['--skip', 'build,orama']).parts].sort()).toEqual(['http', 'longtail', 'publish', 'search', 'snapshot']);
  });

  it('refuses unknown parts and malformed numbers', () => {
    expect(() => parseBenchArgs(['--only', 'serch'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--providers', '1e5'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--nope'])).toThrow(UsageError);
  });

  it('never asks Orama for more queries than the mix has', () => {
    expect(parseBenchArgs(['--queries', '50']).oramaQueries).toBe(50);
  });
});
