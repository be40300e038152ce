import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  dts: true,
  sourcemap: true,
  target: 'node20',
  // The mock's users bring their own msw; the main entry never imports it.
  external: ['msw', 'msw/node'],
};

export default defineConfig([
  // ESM users resolve ky themselves, so it stays a shared dependency.
  { ...shared, format: 'esm', clean: true },
  // ky ships ESM only; bundling it keeps `require('payments-service-sdk')` working.
  { ...shared, format: 'cjs', noExternal: ['ky'] },
]);
