import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'tsdown';

/**
 * msw is optional, so a consumer compiling without it (and with `skipLibCheck: false`) must not fail on the
 * testing types' `import ... from "msw"`: the import is marked `@ts-expect-error`, and `mock.handlers` is then typed
 * `any[]` there. Declaration bundling drops comments, so the mark is added to the emitted `.d.ts`/`.d.cts`.
 */
const optionalMswTypes = {
  name: 'optional-msw-types',
  generateBundle(_: unknown, bundle: Record<string, { fileName: string; type: string; code?: string }>) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || !/\.d\.c?ts$/.test(chunk.fileName) || chunk.code === undefined) continue;
      chunk.code = chunk.code.replace(
        /^import (.*) from "msw";$/m,
        '// @ts-ignore -- msw is optional: without it, mock.handlers is any[] rather than a compile error\n$&',
      );
    }
  },
};

// tsdown succeeds tsup (whose README now says it is unmaintained): the same two formats, the same file names.
// `npm run build` empties dist/ first; the two formats build side by side, so neither cleans.
const shared = {
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', outbox: 'src/outbox/index.ts' },
  dts: true,
  sourcemap: true,
  target: 'node22',
  platform: 'neutral',
  clean: false,
  // `.js`/`.cjs` and `.d.ts`/`.d.cts`, as package.json's exports name them.
  fixedExtension: false,
  // An output plugin, so that it also runs in the pass that writes the `.d.cts` files (input plugins do not).
  outputOptions: (options: object) => ({ ...options, plugins: [optionalMswTypes] }),
} satisfies UserConfig;

// The mock's users bring their own msw (2 or 3) when they want its handlers; nothing else imports it.
const neverBundle = [/^msw(\/.*)?$/, /^node:/];

/**
 * The testing entry loads msw with a top-level `await import()`, which CJS cannot hold: its build takes
 * `msw-load.cjs.ts` (a guarded `require`) in place of `msw-load.ts`.
 */
const mswLoadCjs = {
  name: 'msw-load-cjs',
  resolveId(id: string, importer: string | undefined) {
    if (id === './msw-load.js' && importer?.includes('/src/testing/')) {
      return fileURLToPath(new URL('./src/testing/msw-load.cjs.ts', import.meta.url));
    }
    return undefined;
  },
};

export default defineConfig([
  // ESM users resolve ky themselves, so it stays a shared dependency.
  { ...shared, format: 'esm', deps: { neverBundle } },
  // ky ships ESM only, and require(esm) is unflagged only from Node 22.12: bundling it keeps
  // `require('payments-service-sdk')` working on every Node 22.
  {
    ...shared,
    format: 'cjs',
    deps: { neverBundle, alwaysBundle: ['ky'], onlyBundle: ['ky'] },
    plugins: [mswLoadCjs],
  },
]);
