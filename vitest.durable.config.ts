import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The outbox's kill trials (test/durable/): worker processes over a real PostgreSQL and a SQLite file, killed and
 * paused at seeded points. Minutes long, so not part of `vitest run`; run with
 * `npx vitest run --config vitest.durable.config.ts` (`npm run test:durable`; a step of .ci/run).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/durable/**/*.test.ts'],
    exclude: [],
    testTimeout: 300_000,
  },
});
