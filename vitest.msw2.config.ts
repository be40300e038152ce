import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The mock kit's tests again on msw 2 (`npm run test:msw2`): `msw` and `msw/node` resolve to msw 2.15, installed
 * as the `msw2` alias, for the SDK's source and the tests alike. Users may have either major; CI runs both.
 */
const aliases = Array.isArray(base.resolve?.alias) ? base.resolve.alias : [];
export default defineConfig({
  ...base,
  resolve: { ...base.resolve, alias: [...aliases, { find: /^msw(\/.*)?$/, replacement: 'msw2$1' }] },
  test: {
    ...base.test,
    include: ['test/testing/**/*.test.ts', 'test/integration/examples.test.ts', 'examples/**/*.test.ts'],
    env: { VITEST_MSW_MAJOR: '2' },
  },
});
