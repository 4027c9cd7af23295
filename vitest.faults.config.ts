import { defineConfig } from 'vitest/config';

/** npm run test:faults: the fault suite (tests/faults), one file at a time so the load stays bounded on two cores. */
export default defineConfig({
  test: {
    include: ['tests/faults/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
