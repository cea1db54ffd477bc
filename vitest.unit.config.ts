import { defineConfig } from 'vitest/config';

/** Pure unit tests of the engine: no database, no global setup. */
export default defineConfig({
  test: {
    include: ['test/engine/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
