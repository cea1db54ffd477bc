import { defineConfig } from 'vitest/config';

/** Pure unit tests of the engine: no database, no global setup. */
export default defineConfig({
  test: {
    include: ['test/engine/**/*.test.ts'],
    // Through the service's HTTP API, with its database: run by the main config.
    exclude: ['test/engine/openai.codify-api.test.ts'],
    testTimeout: 30_000,
  },
});
