/**
 * The quick lane (npm run test:quick, vitest.quick.config.ts) is a part of the whole
 * suite (npm test): every pattern it lists names test files, and none of them is
 * outside the whole suite's files (the fault suite runs on its own).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import quick from '../../vitest.quick.config.ts';

const patterns = quick.test?.include ?? [];

describe('npm run test:quick', () => {
  it('lists test files the whole suite runs too', () => {
    expect(patterns.length).toBeGreaterThan(5);
    for (const pattern of patterns) {
      const files = fs.globSync(pattern);
      expect(files.length, pattern).toBeGreaterThan(0);
      for (const file of files) expect(file, pattern).toMatch(/^tests\/(?!faults\/).*\.test\.ts$/);
    }
  });
});
