#!/usr/bin/env node
/**
 * Every TypeScript block of README.md and docs/**\/*.md, compiled against the BUILT package (and run, when
 * marked), so no example can rot. The conventions are in docs/README.md ("Code blocks"):
 *
 *   ```ts            type-checked against dist/, as a module of its own, twice: under `strict`, and under
 *                    `strict` with `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess` (the "strictest"
 *                    settings many projects use); a block must compile under both
 *   ```ts run        type-checked, then run by Node against the mock on a loopback port
 *                    (PAYMENTS_BASE_URL and PAYMENTS_API_KEY point at it)
 *   ```ts test       type-checked, then run as a vitest test file (the merchant's own test setup)
 *   ```ts fragment   skipped: a piece that cannot stand alone; say why in the text around it
 *   ```ts recipe     skipped here: scripts/otel-recipes.mjs compiles and runs it after the install line above it
 *
 * A block may use `client` (a `PaymentsClient`) without declaring it; everything else it names it imports or
 * declares. `payments-service-sdk` resolves to this repository's package.json and so to dist/, never to src/.
 *
 *   npm run build && node scripts/doc-snippets.mjs [--keep] [README.md docs/x.md ...]
 *
 * Ends with "doc-snippets: N passed, M failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, '.doc-snippets');
const KINDS = new Set(['check', 'run', 'test', 'fragment', 'recipe']);

function markdownFiles() {
  const docs = join(root, 'docs');
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return [join(root, 'README.md'), ...(existsSync(docs) ? walk(docs) : [])];
}

/** Fenced ```ts blocks, indented ones (inside list items) included. */
function blocks(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\b\s*(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, , mark] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent.length));
    found.push({ file, line: i + 1, kind: mark || 'check', code: body.join('\n') });
    i = j;
  }
  return found;
}

// Paths on the command line (README.md, docs/payouts.md) narrow the run to those files.
const only = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => join(root, a));
const all = markdownFiles()
  .filter((f) => only.length === 0 || only.includes(f))
  .flatMap(blocks);
let passed = 0;
let failed = 0;
let skipped = 0;
const fail = (b, why) => {
  failed++;
  console.log(`FAIL ${relative(root, b.file)}:${b.line} (${b.kind})\n${why.replace(/^/gm, '     ')}`);
};

if (!existsSync(join(root, 'dist/index.d.ts'))) {
  console.log('doc-snippets: dist/ is missing: run `npm run build` first');
  console.log('doc-snippets: 0 passed, 1 failed');
  process.exit(1);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'node_modules'), { recursive: true });
// The package by its name, as a merchant imports it: this repository, whose exports point into dist/.
symlinkSync(root, join(work, 'node_modules', 'payments-service-sdk'), 'dir');
writeFileSync(join(work, 'package.json'), '{"name":"doc-snippets","private":true,"type":"module"}\n');
writeFileSync(
  join(work, 'globals.d.ts'),
  "import type { PaymentsClient } from 'payments-service-sdk';\ndeclare global {\n  const client: PaymentsClient;\n}\nexport {};\n",
);

const checked = [];
for (const [i, b] of all.entries()) {
  if (!KINDS.has(b.kind)) {
    fail(b, `unknown mark "${b.kind}": use ts, ts run, ts test, ts fragment or ts recipe`);
    continue;
  }
  // A recipe installs packages this repository does not: scripts/otel-recipes.mjs compiles and runs it in a
  // project of its own, installed from its pins.
  if (b.kind === 'fragment' || b.kind === 'recipe') {
    skipped++;
    continue;
  }
  const base = `${relative(root, b.file).replace(/[/.]/g, '_')}_${b.line}`;
  b.path = join(work, b.kind === 'test' ? `${base}.test.ts` : `${base}.ts`);
  // Each block is a module of its own, so names do not clash across blocks.
  writeFileSync(b.path, `${b.code}\nexport {};\n`);
  b.index = i;
  checked.push(b);
}

const base = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};
/** The two settings every block must compile under: the default strict ones, and the strictest common ones. */
const CONFIGS = [
  { name: 'strict', options: base },
  {
    name: 'strict + exactOptionalPropertyTypes',
    options: { ...base, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
  },
];
const compileOk = new Set(checked);
for (const { name, options } of CONFIGS) {
  // Modules the blocks import besides the SDK (zod, msw, vitest) come from the repository's own node_modules.
  const host = ts.createCompilerHost(options);
  const resolveFrom = join(root, 'package.json');
  host.resolveModuleNameLiterals = (literals, containingFile, _ref, opts, sourceFile) =>
    literals.map((lit) => {
      const spec = lit.text;
      const mode = ts.getModeForUsageLocation(sourceFile, lit, opts);
      const here = ts.resolveModuleName(spec, containingFile, opts, host, undefined, undefined, mode);
      if (here.resolvedModule || spec.startsWith('.') || spec.startsWith('payments-service-sdk')) return here;
      return ts.resolveModuleName(spec, resolveFrom, opts, host, undefined, undefined, mode);
    });
  const files = [join(work, 'globals.d.ts'), ...checked.map((b) => b.path)];
  const program = ts.createProgram(files, options, host);
  for (const b of checked) {
    const source = program.getSourceFile(b.path);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    // A block that failed under the first settings is reported once.
    if (diagnostics.length === 0 || !compileOk.has(b)) continue;
    compileOk.delete(b);
    fail(
      b,
      `under ${name}:\n${diagnostics
        .map((d) => {
          const at =
            d.start === undefined ? '' : `line ${source.getLineAndCharacterOfPosition(d.start).line + 1}: `;
          return `${at}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
        })
        .join('\n')}`,
    );
  }
}

// Runnable blocks: against the mock on a loopback port, one fresh mock per block.
const { startMockServer, DEFAULT_API_KEY } = await import(join(root, 'dist/testing.js'));
for (const b of checked.filter((x) => compileOk.has(x))) {
  if (b.kind === 'check') {
    passed++;
    continue;
  }
  let result;
  if (b.kind === 'run') {
    const srv = await startMockServer({ seed: 1 });
    try {
      // Asynchronous, so this process's loopback server can answer the child.
      result = await new Promise((resolve) => {
        const env = { ...process.env, PAYMENTS_BASE_URL: srv.baseUrl, PAYMENTS_API_KEY: DEFAULT_API_KEY };
        const p = spawn(process.execPath, ['--no-warnings', b.path], { cwd: work, env, stdio: 'pipe' });
        let out = '';
        p.stdout.on('data', (d) => (out += d));
        p.stderr.on('data', (d) => (out += d));
        const timer = setTimeout(() => p.kill(), 60_000);
        p.on('close', (code) => {
          clearTimeout(timer);
          resolve({ status: code, output: out });
        });
      });
    } finally {
      await srv.close();
    }
  } else {
    writeFileSync(
      join(work, 'vitest.config.mjs'),
      "export default { test: { include: ['*.test.ts'], testTimeout: 30000 } };\n",
    );
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'vitest.config.mjs',
        relative(work, b.path),
      ],
      { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 },
    );
    result = { status: r.status, output: `${r.stdout}${r.stderr}` };
  }
  if (result.status === 0) passed++;
  else fail(b, result.output.trim().split('\n').slice(-30).join('\n'));
}

if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
console.log(
  `doc-snippets: ${all.length} blocks; ${skipped} fragments and recipes skipped; compiled under ${CONFIGS.map((c) => c.name).join(' and ')}`,
);
console.log(`doc-snippets: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
