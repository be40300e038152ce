import { defineConfig } from 'tsdown';

// One executable: the SDK, the MCP SDK and zod stay dependencies (installed beside it, not bundled).
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node22',
  dts: false,
  sourcemap: true,
  clean: true,
  fixedExtension: false,
});
