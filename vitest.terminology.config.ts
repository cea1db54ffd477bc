import { defineConfig } from 'vitest/config';

/** Pure tests of the terminology layer and the local coder: no database, no global setup. */
export default defineConfig({
  test: {
    include: ['test/terminology/**/*.test.ts', 'test/engine/coder*.test.ts'],
    testTimeout: 30_000,
  },
});
