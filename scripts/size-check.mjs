// Bundle size of the SDK as an app's bundler sees it, checked against size-budget.json.
//   npm run build && node scripts/size-check.mjs            fails when a bundle is over its budget
//   node scripts/size-check.mjs --update                    rewrites the budget: measured size + 3 %
// esbuild bundles of dist/index.js with its dependencies (format esm, minified, platform neutral with the
// browser conditions, as a front-end bundler resolves them), gzipped with zlib level 9, measured two ways:
//   split     as a bundler that splits chunks builds it: the figure is the entry's chunk; the chunks the SDK
//             imports lazily are printed beside it;
//   one file  as esbuild bundles by default (no splitting): a lazy import is inlined, so this is everything the
//             app can ever run. Issue 41's targets (`targets` in size-budget.json) are on these figures.
//   whole  `export * from dist/index.js`: everything the SDK exports;
//   app    an app that imports only PaymentsClient and calls one method;
//   otel   `export * from dist/otel.js`, the `payments-service-sdk/otel` entry (OpenTelemetry's API left out).
//   outbox `export * from dist/outbox.js`: the outbox entry with the core code it uses (its own budget, so the
//          core's two figures show that the outbox adds nothing to them).
// None of them may carry zod's compiler (package.json's `#compiler` gives it to node, bun and deno only); the
// app bundled under Node's conditions must, which shows the check can fail.
// Node's built-in modules stay external: the SDK reaches node:fs only through a lazy import when a file path
// is uploaded, which a browser never does.
// Closing line, read by .ci/run: "size: N passed, M failed".
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const SOURCE = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const OUTBOX = fileURLToPath(new URL('../dist/outbox.js', import.meta.url));
const BUDGET_FILE = fileURLToPath(new URL('../size-budget.json', import.meta.url));
const MARGIN = 0.03;

export const ENTRIES = {
  whole: {
    label: 'whole SDK (export * from dist/index.js)',
    code: `export * from ${JSON.stringify(DIST)};`,
  },
  app: {
    label: 'app importing only PaymentsClient, one call',
    code: [
      `import { PaymentsClient } from ${JSON.stringify(DIST)};`,
      `const client = new PaymentsClient({ apiKey: 'sk_app', baseUrl: 'https://payments.example.com' });`,
      'client.transactions.list({ pageSize: 20 }).then((page) => console.log(page.data.length));',
    ].join('\n'),
  },
  otel: {
    label: "otel entry (export * from dist/otel.js; @opentelemetry/api is the app's own)",
    code: `export * from ${JSON.stringify(fileURLToPath(new URL('../dist/otel.js', import.meta.url)))};`,
    external: ['@opentelemetry/api'],
  },
  outbox: {
    label: 'outbox entry (export * from dist/outbox.js, with the core code it uses)',
    code: `export * from ${JSON.stringify(OUTBOX)};`,
  },
};

/** Bundles `code` (an entry module); `external` adds packages left out of the bundle; `conditions` replace `browser`. */
export async function bundle(code, external = [], conditions = ['browser'], split = true) {
  const result = await esbuild.build({
    stdin: { contents: code, resolveDir: ROOT, sourcefile: 'entry.mjs', loader: 'js' },
    bundle: true,
    write: false,
    // As an app's bundler splits it: what the SDK imports lazily (uploads, payout recovery, webhook parsing)
    // goes to chunks loaded on first use, and the entry's chunk is what every page load pays.
    splitting: split,
    outdir: join(tmpdir(), 'payments-sdk-size'),
    chunkNames: 'lazy-[hash]',
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    conditions,
    external: [...builtinModules, 'node:*', ...external],
    metafile: true,
    logLevel: 'silent',
  });
  // The entry's chunk and the chunks it imports statically load with it; the rest only on an `import()`.
  const outputs = result.metafile.outputs;
  const entryPath = Object.keys(outputs).find((path) => outputs[path].entryPoint);
  const eager = new Set([entryPath]);
  for (const path of eager)
    for (const { path: next, kind } of outputs[path].imports)
      if (kind === 'import-statement' && outputs[next]) eager.add(next);
  const files = result.outputFiles.map((file) => ({ file, path: relative(process.cwd(), file.path) }));
  const size = (list) => ({
    minified: list.reduce((n, { file }) => n + file.contents.length, 0),
    // Each chunk gzipped on its own, as it is served.
    gzipped: list.reduce((n, { file }) => n + gzipSync(file.contents, { level: 9 }).length, 0),
  });
  const lazy = files.filter(({ path }) => !eager.has(path));
  const inputs = Object.values(outputs).flatMap((output) => Object.entries(output.inputs));
  // zod's compiler (package.json's `#compiler` picks it only under node, bun and deno): bytes of it bundled.
  // Under 1 kB is the empty module a bundle without splitting keeps for an `export *` (29 B): not the compiler.
  const compilerBytes =
    inputs.find(([path]) => /zod\/v4\/core\/compile\.js$/.test(path))?.[1].bytesInOutput ?? 0;
  const compiler = compilerBytes > 1000 ? compilerBytes : 0;
  const eagerInputs = {};
  for (const path of eager) Object.assign(eagerInputs, outputs[path].inputs);
  return {
    ...size(files.filter(({ path }) => eager.has(path))),
    lazy: { chunks: lazy.length, ...size(lazy) },
    compiler,
    metafile: { outputs: { entry: { inputs: eagerInputs } } },
  };
}

/** The bundles measured as one file too (esbuild's default, no splitting): the core's, where the targets are. */
export const ONE_FILE = ['whole', 'app'];

/**
 * Every bundle: `{ whole: { minified, gzipped, metafile }, app: { ... }, otel: { ... }, wholeOneFile: { ... },
 * appOneFile: { ... } }`.
 */
export async function measureSizes() {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`npm run build\` first`);
  const jobs = [
    ...Object.entries(ENTRIES).map(([key, entry]) => [key, bundle(entry.code, entry.external)]),
    ...ONE_FILE.map((key) => [`${key}OneFile`, bundle(ENTRIES[key].code, [], ['browser'], false)]),
  ];
  const built = await Promise.all(jobs.map(([, job]) => job));
  return Object.fromEntries(jobs.map(([key], i) => [key, built[i]]));
}

/** What each budget measures, for the report. */
const LABELS = {
  ...Object.fromEntries(Object.entries(ENTRIES).map(([key, { label }]) => [key, `${label}, split`])),
  ...Object.fromEntries(ONE_FILE.map((key) => [`${key}OneFile`, `${ENTRIES[key].label}, one file`])),
};

const PACKAGES = ['zod', 'ky', 'form-data-encoder', 'formdata-node'];

/** The package an input path of a metafile belongs to, or `payments-service-sdk` for the SDK's own code. */
function owner(input) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match ? match[1] : 'payments-service-sdk';
}

/**
 * What the whole bundle is made of: per package, the minified bytes (metafile) and the gzipped bytes it adds
 * (the whole bundle's size less the bundle built with that package left out), plus the largest inputs.
 */
export async function breakdown(whole) {
  const inputs = Object.entries(Object.values(whole.metafile.outputs)[0].inputs)
    .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^(\.\.\/)*/, ''), bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const minified = new Map();
  for (const { path, bytes } of inputs) minified.set(owner(path), (minified.get(owner(path)) ?? 0) + bytes);
  const packages = [];
  for (const name of PACKAGES) {
    const without = await bundle(ENTRIES.whole.code, [name, `${name}/*`]);
    packages.push({ name, minified: minified.get(name) ?? 0, gzipped: whole.gzipped - without.gzipped });
  }
  const deps = PACKAGES.flatMap((name) => [name, `${name}/*`]);
  const own = await bundle(ENTRIES.whole.code, deps);
  const sdk = minified.get('payments-service-sdk') ?? 0;
  packages.unshift({ name: 'payments-service-sdk', minified: sdk, gzipped: own.gzipped });
  // dist/ is two files; the sources show which modules of the SDK's own code weigh most.
  const fromSource = await bundle(`export * from ${JSON.stringify(SOURCE)};`, deps);
  const modules = Object.entries(Object.values(fromSource.metafile.outputs)[0].inputs)
    .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^(\.\.\/)*/, ''), bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return {
    packages: packages.sort((a, b) => b.gzipped - a.gzipped),
    inputs: inputs.slice(0, 8),
    modules: modules.slice(0, 8),
  };
}

/** What the payouts and uploads entries hold, which the core's app must never bundle, and a module of each. */
const APART = [
  { source: 'src/payouts/proof/', pattern: /^src\/payouts\/proof\// },
  { source: 'src/payouts/tracking/', pattern: /^src\/payouts\/tracking\// },
  { source: 'src/payouts/attempt/', pattern: /^src\/payouts\/attempt\// },
  {
    source: 'src/payouts/payout-recovery.ts',
    pattern: /^src\/payouts\/(payout-recovery|lookup-before-retry|find)\.ts$/,
  },
  { source: 'src/uploads/', pattern: /^src\/uploads\/|^src\/resources\/uploads\.ts$/ },
  { source: 'form-data-encoder', pattern: /node_modules\/(form-data-encoder|formdata-node)\// },
];

/** Modules of `APART` in a one-file bundle of the app built from src/ (`#compiler` as a browser resolves it). */
async function strayModules() {
  const source = ENTRIES.app.code.replace(JSON.stringify(DIST), JSON.stringify(SOURCE));
  const noCompiler = fileURLToPath(new URL('../src/rules/no-compiler.ts', import.meta.url));
  const result = await esbuild.build({
    // Input paths relative to the repository, wherever the script is run from.
    absWorkingDir: ROOT,
    stdin: { contents: source, resolveDir: ROOT, sourcefile: 'entry.mjs', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    conditions: ['browser'],
    external: [...builtinModules, 'node:*'],
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'compiler',
        setup: (b) => b.onResolve({ filter: /^#compiler$/ }, () => ({ path: noCompiler })),
      },
    ],
  });
  // An input re-exported by src/index.ts but tree-shaken out (`remarkMatch`, say) is listed with 0 bytes.
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => path.replace(/^(\.\.\/)*/, ''));
  return inputs.filter((path) => APART.some(({ pattern }) => pattern.test(path)));
}

export const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  const update = process.argv.includes('--update');
  let sizes;
  try {
    sizes = await measureSizes();
  } catch (error) {
    console.error(`size: cannot bundle: ${error.message}`);
    console.log(`size: 0 passed, ${Object.keys(ENTRIES).length} failed`);
    process.exitCode = 1;
    return;
  }
  if (update) {
    const { targets, targetsNote } = JSON.parse(readFileSync(BUDGET_FILE, 'utf8'));
    const budget = { note: 'Gzipped bytes allowed per bundle of scripts/size-check.mjs: measured + 3 %.' };
    for (const key of Object.keys(LABELS)) budget[key] = Math.ceil(sizes[key].gzipped * (1 + MARGIN));
    Object.assign(budget, { targetsNote, targets });
    writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
    console.log(`wrote ${BUDGET_FILE}`);
  }
  const budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8'));
  let passed = 0;
  let failed = 0;
  for (const [key, label] of Object.entries(LABELS)) {
    const { gzipped, minified, compiler } = sizes[key];
    const limit = budget[key];
    const ok = Number.isFinite(limit) && gzipped <= limit && compiler === 0;
    if (ok) passed++;
    else failed++;
    const carries = compiler ? `, FAIL: carries zod's compiler (${kB(compiler)} minified)` : '';
    const { lazy } = sizes[key];
    const later = lazy.chunks
      ? `; ${lazy.chunks} lazy chunks, ${lazy.gzipped} B gzipped, loaded on first use`
      : '';
    const target = budget.targets?.[key];
    const aim = target
      ? `; target ${target} B (${gzipped <= target ? 'met' : `${gzipped - target} B over`})`
      : '';
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${label}: ${gzipped} B gzipped (${kB(minified)} minified), budget ${limit ?? 'missing'} B${aim}${later}${carries}`,
    );
  }
  // The app as one file, bundled from the sources so its inputs are modules: none of the payout domain beyond
  // one POST, and no multipart encoder. They are the payouts and uploads entries (issue 41).
  const stray = await strayModules();
  if (stray.length === 0) passed++;
  else failed++;
  console.log(
    stray.length === 0
      ? `ok   the app as one file carries none of ${APART.map(({ source }) => source).join(', ')}`
      : `FAIL the app as one file carries ${stray.join(', ')}`,
  );
  // The same app under Node's conditions does carry the compiler: the check above is not vacuous.
  const node = await bundle(ENTRIES.app.code, [], ['node']);
  const nodeOk = node.compiler > 0;
  if (nodeOk) passed++;
  else failed++;
  console.log(
    `${nodeOk ? 'ok  ' : 'FAIL'} the app under Node's conditions carries zod's compiler: ${kB(node.compiler)} minified ` +
      `(${node.gzipped} B gzipped in all); every bundle above leaves it out`,
  );
  if (failed)
    console.log(
      'over budget: find the cause with `npm run bench` (size breakdown), or raise it with --update',
    );
  console.log(`size: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
