import { defineConfig } from 'vitest/config';

// Under CI a JSON report is written too, so .ci/run can print its one-line tally while running the
// very command README.md gives (`npm test`).
const reporters: (string | [string, Record<string, unknown>])[] = process.env.CI
  ? ['default', ['json', { outputFile: '.ci/results.json' }]]
  : ['default'];

// Folders whose tests run the built CLI as a user would, start Chromium, or run the CI recipes:
// slow, so `npm run test:unit` (fast feedback) leaves them out; `npm test` runs both projects.
const E2E = ['test/e2e/**/*.test.ts', 'test/ci/**/*.test.ts', 'test/docs-ui/**/*.test.ts'];

export default defineConfig({
  test: {
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters,
    // Two cores on CI machines: more workers only add contention.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, 'test/bench/**', 'node_modules/**', 'dist/**'] },
      },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
