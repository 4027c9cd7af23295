/**
 * SEARCH_THREADS unset: a server (scripts/serve.ts) takes one search thread when
 * the machine has a core to spare, the node runs one process and the embedder is
 * the built-in one; every other entry point (the static build, astro dev,
 * in-process tests) takes none.
 */
import { describe, expect, it } from 'vitest';
import { forServer, loadEnv, serverSearchThreads } from '../../src/env.ts';

describe('SEARCH_THREADS', () => {
  it('gives a single-process server on two cores or more one search thread, else none', () => {
    expect(serverSearchThreads(1, 'builtin', 1)).toBe(0);
    expect(serverSearchThreads(1, 'builtin', 2)).toBe(1);
    expect(serverSearchThreads(1, 'builtin', 16)).toBe(1);
    expect(serverSearchThreads(2, 'builtin', 16)).toBe(0);
    // an external embedder: searches wait on the network, and each thread would keep its own cache and pause
    expect(serverSearchThreads(1, 'http', 16)).toBe(0);
  });

  it('is 0 outside the server when unset, and what it says when set', () => {
    expect(loadEnv({}).searchThreads).toBe(0);
    expect(forServer(loadEnv({})).searchThreads).toBe(serverSearchThreads(1, 'builtin'));
    expect(forServer(loadEnv({ EMBEDDER_URL: 'http://127.0.0.1:9/v1', EMBEDDER_MODEL: 'm', EMBEDDER_DIMS: '8' })).searchThreads).toBe(0);
    expect(forServer(loadEnv({ SERVE_PROCESSES: '3' })).searchThreads).toBe(0);
    expect(forServer(loadEnv({ SEARCH_THREADS: '0' })).searchThreads).toBe(0);
    expect(forServer(loadEnv({ SEARCH_THREADS: '3', SERVE_PROCESSES: '2' })).searchThreads).toBe(3);
    expect(() => loadEnv({ SEARCH_THREADS: '-1' })).toThrow(/SEARCH_THREADS/);
  });
});

describe('RELEASE_ORIGIN', () => {
  it('serves the installed release from releases/current unless STATIC_ROOT says otherwise, and needs one server process', () => {
    const cwd = '/srv/app';
    const following = loadEnv({ RELEASE_ORIGIN: 'http://origin.internal:8080/', RELEASE_POLL_INTERVAL_MS: '1500' }, cwd);
    expect(following).toMatchObject({ releaseOrigin: 'http://origin.internal:8080', releasePollMs: 1500, staticRoot: '/srv/app/releases/current' });
    expect(loadEnv({ RELEASE_ORIGIN: 'http://o:8080', STATIC_ROOT: 'site' }, cwd).staticRoot).toBe('/srv/app/site');
    expect(loadEnv({}, cwd)).toMatchObject({ releaseOrigin: undefined, releasePollMs: 5000, staticRoot: '/srv/app/dist/client', releaseOriginDir: undefined });
    expect(loadEnv({ RELEASE_ORIGIN_DIR: 'origin' }, cwd).releaseOriginDir).toBe('/srv/app/origin');
    expect(() => loadEnv({ RELEASE_ORIGIN: 'http://o:8080', SERVE_PROCESSES: '2' })).toThrow(/RELEASE_ORIGIN: .*SERVE_PROCESSES=1/);
    expect(() => loadEnv({ RELEASE_ORIGIN: 'ftp://o/' })).toThrow(/RELEASE_ORIGIN/);
  });
});
