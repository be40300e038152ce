import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Examples import the package by name, as users do; in this repo that name means the source.
  resolve: {
    alias: [
      { find: /^payments-service-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^payments-service-sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^payments-service-sdk\/outbox$/, replacement: src('outbox/index.ts') },
      { find: /^payments-service-sdk\/payouts$/, replacement: src('payouts/index.ts') },
      { find: /^payments-service-sdk\/uploads$/, replacement: src('uploads/index.ts') },
      { find: /^payments-service-sdk$/, replacement: src('index.ts') },
      // package.json's `#compiler` as Node resolves it (the tests run on Node); the interpreted side is
      // imported by name where a test compares the two.
      { find: /^#compiler$/, replacement: src('rules/compiler.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The outbox's kill trials (minutes of worker processes) are a CI step of their own: vitest.durable.config.ts.
    exclude: [...configDefaults.exclude, 'test/durable/**'],
    environment: 'node',
    // Fails any test that writes the canary API key (test/helpers/server.ts) to stdout, stderr or the console.
    setupFiles: ['test/helpers/canary-guard.ts'],
    restoreMocks: true,
    unstubEnvs: true,
    // No test here is about speed. On a 2-core machine running two suites at once (or beside other work), a test
    // of a few hundred ms can take seconds, and vitest's 5 s default would fail it for the machine's load alone;
    // these bounds only decide how long a test that really hangs takes to fail. Tests with large work (1,000
    // pages, 1,000 trials) set larger ones of their own.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // `npm run coverage` (and CI's main run): line coverage of src/, failing under the floor the tests keep.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: { lines: 96 },
    },
  },
});
