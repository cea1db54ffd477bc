import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: the reliability and security suite alone (faults, fuzzing, attacks, PHI).
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
