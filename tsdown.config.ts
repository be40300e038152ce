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

/**
 * The declarations are written once, by the ESM build, and copied to `.d.cts` for `require` users: the two were
 * byte for byte the same (both self-contained, importing only `zod/mini` and `msw`), and a second declaration
 * pass in the CJS build cost about 2 s and reported ky as an unused `onlyBundle` entry (types never bundle ky).
 */
const cjsDeclarations = {
  name: 'cjs-declarations',
  generateBundle(
    this: { emitFile(file: { type: 'asset'; fileName: string; source: string }): void },
    _: unknown,
    bundle: Record<string, { fileName: string; type: string; code?: string }>,
  ) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || !chunk.fileName.endsWith('.d.ts') || chunk.code === undefined) continue;
      const fileName = chunk.fileName.replace(/\.d\.ts$/, '.d.cts');
      // No declaration maps are written, so the copy names none.
      const source = chunk.code.replace(/\n?\/\/# sourceMappingURL=\S+$/, '\n');
      this.emitFile({ type: 'asset', fileName, source });
    }
  },
};

// tsdown succeeds tsup (whose README now says it is unmaintained): the same two formats, the same file names.
// `npm run build` empties dist/ first; the two formats build side by side, so neither cleans.
const shared = {
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    otel: 'src/otel/index.ts',
    outbox: 'src/outbox/index.ts',
    // Apart from the core entry, so an app that never imports them never bundles them (issue 41).
    payouts: 'src/payouts/index.ts',
    uploads: 'src/uploads/index.ts',
    // The two targets of package.json's `#compiler` import: zod's compiler where code generation is allowed,
    // none elsewhere. `#compiler` itself stays an import, so each runtime and bundler picks one by its conditions.
    compiler: 'src/rules/compiler.ts',
    'no-compiler': 'src/rules/no-compiler.ts',
  },
  // `@internal` members (the SDK's own factories, the mock's bookkeeping) are left out of the published types.
  dts: { compilerOptions: { stripInternal: true } },
  // Maps name src/ files and lines (stack traces under --enable-source-maps point there) without carrying the
  // sources themselves: with them the maps were 2.0 MB of the 3.4 MB dist/ (docs/testing.md, "Sizes").
  sourcemap: true,
  outputOptions: { sourcemapExcludeSources: true },
  target: 'node22',
  platform: 'neutral',
  clean: false,
  // `.js`/`.cjs` and `.d.ts`/`.d.cts`, as package.json's exports name them.
  fixedExtension: false,
  // Rolldown's PLUGIN_TIMINGS note reports that the declaration plugin (the TypeScript compiler) takes most of
  // the build time, which is expected and nothing to act on; with it the build would never print clean.
  inputOptions: { checks: { pluginTimings: false } },
} satisfies UserConfig;

// The mock's users bring their own msw (2 or 3) when they want its handlers; nothing else imports it. The otel
// entry's users bring their own OpenTelemetry API (an optional peer dependency).
const neverBundle = [/^msw(\/.*)?$/, /^node:/, /^@opentelemetry\//, /^pg$/, /^#compiler$/];

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
  {
    ...shared,
    // The operator's command (`payments-outbox`, package.json's bin), ESM only: it loads the merchant's `pg`.
    // `payments-service-sdk mock` (the package's own bin): the mock on a loopback port, ESM only too.
    entry: { ...shared.entry, 'outbox-cli': 'src/outbox/bin.ts', cli: 'src/testing/bin.ts' },
    format: 'esm',
    deps: { neverBundle },
    // Output plugins, run where the declarations are written; the msw mark goes in before the `.d.cts` copy.
    outputOptions: (options: object) => ({
      ...options,
      sourcemapExcludeSources: true,
      plugins: [optionalMswTypes, cjsDeclarations],
    }),
  },
  // ky ships ESM only, and require(esm) is unflagged only from Node 22.12: bundling it keeps
  // `require('payments-service-sdk')` working on every Node 22.
  {
    ...shared,
    format: 'cjs',
    dts: false,
    deps: { neverBundle, alwaysBundle: ['ky'], onlyBundle: ['ky'] },
    plugins: [mswLoadCjs],
  },
]);
