import { defineConfig } from 'vitest/config';

// Under CI a JSON report is written too, so .ci/run can print its one-line tally while running the
// very command README.md gives (`npm test`).
const reporters: (string | [string, Record<string, unknown>])[] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/results.json' }]]
  : ['default'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters,
    // Two cores on CI machines: more workers only add contention.
    maxWorkers: 2,
  },
});
