import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // the fault suite runs alone: npm run test:faults (vitest.faults.config.ts)
    exclude: [...configDefaults.exclude, 'tests/faults/**'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
