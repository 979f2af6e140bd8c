import { defineConfig } from 'vitest/config';

// Two cores on the project's machines: two workers, generous timeouts for real-server tests.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/node-host-setup.ts'],
  },
});
