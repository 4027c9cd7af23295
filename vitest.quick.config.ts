import { configDefaults, defineConfig } from 'vitest/config';

/**
 * npm run test:quick: the unit tests, the in-process query and recommend tests over one
 * shared fixture snapshot, and the single-server HTTP test of the public API
 * (tests/http/api.test.ts). Left to `npm test`: the browser and site builds, the
 * multi-process and Redis tests, the CLI runs, the evaluation sets and the
 * exhaustive reference tests.
 */
const QUICK_TESTS = [
  'tests/architecture/*.test.ts',
  'tests/bench/{args,dataset-edit,publish-table,queries,stats,table}.test.ts',
  'tests/cli/server-settings.test.ts',
  'tests/generate/seed.test.ts',
  'tests/http/{api,canonical,docs,kept-buffer,static-files}.test.ts',
  'tests/language/*.test.ts',
  'tests/ops/units.test.ts',
  'tests/query/{list-caches,search,search-keyword-text,terms-found}.test.ts',
  'tests/recommend/{constraints-parse,lexicon-map,nl-query,recommend}.test.ts',
  'tests/search/*.test.ts',
  'tests/site/{charts,site-units,static-headers}.test.ts',
  'tests/snapshot/{embedder-builtin,embedder-http,tag-groups,vector-partitions}.test.ts',
  'tests/text/*.test.ts',
  'tests/vectors/*.test.ts',
];

export default defineConfig({
  test: {
    include: QUICK_TESTS,
    exclude: [...configDefaults.exclude],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
