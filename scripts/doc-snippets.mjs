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
 * Money. A block that moves money (`payouts.create`, `lookupBeforeRetry`, an outbox's `enqueue`, `work` or
 * `settle`) must be `ts run`, or a `ts test` with a mock of its own. Every `ts run` block runs against a mock
 * that commits the first POST /payouts and then cuts its connection (`dropAfterCommit`), and lists new
 * transactions only LAG_MS after they are made (`listingLag`): a block that sends a payout must exit 0 with
 * exactly one payout made, so a snippet that pays twice, or gives up on a payout that went through, fails. What
 * a run block declares (`declare const beneficiary: ...`) it is given by scripts/doc-snippets-fixtures.mjs; a
 * block that imports `pg` or `pg-boss` gets a database of its own on a throwaway PostgreSQL (PGHOST, ...,
 * DATABASE_URL); a block that waits for SIGTERM (a deploy's worker) gets one as its first payout is sent.
 *
 * The check is proven to bite: the blocks of test/fixtures/doc-snippets/*.md each say how they must fail
 * (`<!-- doc-snippets expects: fail "..." -->` above the block), and do.
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
import pg from 'pg';
import ts from 'typescript';
import { FIXTURES } from './doc-snippets-fixtures.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = join(root, '.doc-snippets');
const KINDS = new Set(['check', 'run', 'test', 'fragment', 'recipe']);

function markdownFiles() {
  const docs = join(root, 'docs');
  // docs/api/ is TypeDoc's output (`npm run docs`), copies of these pages among it: not read twice.
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? join(dir, e.name) === join(docs, 'api')
          ? []
          : walk(join(dir, e.name))
        : e.name.endsWith('.md')
          ? [join(dir, e.name)]
          : [],
    );
  return [join(root, 'README.md'), ...(existsSync(docs) ? walk(docs) : [])];
}

/**
 * Fenced ```ts blocks, indented ones (inside list items) included. In a fixture, the comment
 * `<!-- doc-snippets expects: fail "why" -->` above a block is what the block must fail with.
 */
function blocks(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  let expects;
  for (let i = 0; i < lines.length; i++) {
    const expectation = /<!-- doc-snippets expects: fail "([^"]+)" -->/.exec(lines[i]);
    if (expectation) expects = expectation[1];
    const open = /^(\s*)```(ts|typescript)\b\s*(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, , mark] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent.length));
    found.push({ file, line: i + 1, kind: mark || 'check', code: body.join('\n'), expects });
    expects = undefined;
    i = j;
  }
  return found;
}

/** The calls that move money: a block making one must run against the mock (see above). */
const MONEY = /\bpayouts\.create\(|\.lookupBeforeRetry\(|\.(enqueue|settle|work)\(/;
/** What a run block declares: each must be a fixture. */
const declaredNames = (code) =>
  [...code.matchAll(/^\s*declare\s+(?:const|let|function)\s+(\w+)/gm)].map((m) => m[1]);
/** How long the mock lists a new transaction after it is made; longer than the first of the default waits (1 s). */
const LAG_MS = 2000;
/** What a run block prints after its last line. */
const DONE = 'doc-snippets: the block ran to its end';
const FIXTURE_DIR = join(root, 'test', 'fixtures', 'doc-snippets');

// Paths on the command line (README.md, docs/payouts.md) narrow the run to those files.
const only = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => join(root, a));
const fixtures = existsSync(FIXTURE_DIR)
  ? readdirSync(FIXTURE_DIR)
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(FIXTURE_DIR, f))
  : [];
const all = [...markdownFiles(), ...fixtures]
  .filter((f) => only.length === 0 || only.includes(f) || fixtures.includes(f))
  .flatMap(blocks);
let passed = 0;
let failed = 0;
let skipped = 0;
/** A block's failure: counted, or, for a fixture that expects it, its proof that the check bites. */
const fail = (b, why) => {
  b.reported = true;
  const at = `${relative(root, b.file)}:${b.line} (${b.kind})`;
  if (b.expects !== undefined && why.includes(b.expects)) {
    b.settled = true;
    passed++;
    console.log(`ok   the check bites: ${at} fails, as it must (${b.expects})`);
    return;
  }
  failed++;
  console.log(`FAIL ${at}\n${why.replace(/^/gm, '     ')}`);
};
/** A block that ran clean: a pass, unless it is a fixture that had to fail. */
const pass = (b, detail) => {
  if (b.expects !== undefined) {
    fail(b, `passed, but it must fail with "${b.expects}": the check does not bite`);
    return;
  }
  passed++;
  if (detail) console.log(`ok   ${relative(root, b.file)}:${b.line} (${b.kind}): ${detail}`);
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
  if (b.kind === 'fragment' || b.kind === 'recipe' || b.kind === 'check') {
    if (MONEY.test(b.code)) {
      fail(
        b,
        'moves money: mark it `ts run`, so that CI runs it against the mock with a dropped answer and a lagging ' +
          'listing (or `ts test` with a mock of its own)',
      );
      continue;
    }
  }
  if (b.kind === 'fragment' || b.kind === 'recipe') {
    skipped++;
    continue;
  }
  if (b.kind === 'run') {
    const unknown = declaredNames(b.code).filter((name) => !(name in FIXTURES));
    if (unknown.length) {
      fail(
        b,
        `declares ${unknown.join(', ')}: a run block is given only ${Object.keys(FIXTURES).join(', ')} (scripts/doc-snippets-fixtures.mjs)`,
      );
      continue;
    }
  }
  const base = `${relative(root, b.file).replace(/[/.]/g, '_')}_${b.line}`;
  b.path = join(work, b.kind === 'test' ? `${base}.test.ts` : `${base}.ts`);
  // Each block is a module of its own, so names do not clash across blocks. A run block says when it got to its
  // end, so one whose start never settled (an await on nothing) is not taken for one that ran.
  const end = b.kind === 'run' ? `\nconsole.log(${JSON.stringify(DONE)});` : '';
  writeFileSync(b.path, `${b.code}${end}\nexport {};\n`);
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

// Runnable blocks: against the mock on a loopback port, one fresh mock per block, two blocks at a time.
const { startMockServer, DEFAULT_API_KEY } = await import(join(root, 'dist/testing.js'));
const prelude = join(root, 'scripts', 'doc-snippets-fixtures.mjs');
/** Payouts the mock has made, in every account. */
const payoutCount = (mock) => [...mock.state.accounts.values()].reduce((n, a) => n + a.payouts.size, 0);

/** A throwaway PostgreSQL for the blocks that import pg or pg-boss, started on first use. */
let postgres;
async function databaseFor(b) {
  if (!/from 'pg(-boss)?'/.test(b.code)) return {};
  postgres ??= (async () => {
    const { startPostgres } = await import(join(root, 'test', 'helpers', 'postgres.ts'));
    return startPostgres();
  })();
  const server = await postgres;
  const name = `snippet_${b.index}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    PGHOST: '127.0.0.1',
    PGPORT: String(server.port),
    PGUSER: 'postgres',
    PGDATABASE: name,
    DATABASE_URL: `postgres://postgres@127.0.0.1:${server.port}/${name}`,
  };
}

/**
 * Runs a `ts run` block against a fresh mock that drops the first payout's answer after committing it and lags
 * its listing; returns why it failed, or what it did.
 */
async function runAgainstMock(b) {
  const srv = await startMockServer({ seed: 1 });
  const { mock } = srv;
  mock.faults.dropAfterCommit('POST /payouts').listingLag(LAG_MS);
  const before = payoutCount(mock);
  let posts = 0;
  let child;
  // A deploy's worker waits for SIGTERM: it gets one as the first payout is sent, its answer lost.
  const waitsForSigterm = /['"]SIGTERM['"]/.test(b.code);
  const handle = mock.handle.bind(mock);
  mock.handle = async (request, context) => {
    const post = request.method === 'POST' && new URL(request.url).pathname.endsWith('/payouts');
    const response = await handle(request, context);
    if (post && ++posts === 1 && waitsForSigterm) child?.kill('SIGTERM');
    return response;
  };
  try {
    const env = {
      ...process.env,
      PAYMENTS_BASE_URL: srv.baseUrl,
      PAYMENTS_API_KEY: DEFAULT_API_KEY,
      DOC_SNIPPET_DECLARES: declaredNames(b.code).join(','),
      ...(await databaseFor(b)),
    };
    // Asynchronous, so this process's loopback server can answer the child.
    const { status, output } = await new Promise((resolve) => {
      child = spawn(process.execPath, ['--no-warnings', '--import', prelude, b.path], {
        cwd: work,
        env,
        stdio: 'pipe',
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ status: code ?? signal, output: out });
      });
    });
    const made = payoutCount(mock) - before;
    // Where it failed (the first lines name the error) and how it ended.
    const lines = output.trim().split('\n');
    const tail =
      lines.length <= 30 ? lines.join('\n') : [...lines.slice(0, 8), '...', ...lines.slice(-20)].join('\n');
    if (status !== 0) return `exited ${status}:\n${tail}`;
    if (!output.includes(DONE)) return `exited 0 without running to its end:\n${tail}`;
    if (posts > 0 && made !== 1) {
      return (
        `sent ${posts} POST /payouts and made ${made} payouts: a block that pays must end with exactly one ` +
        `(the mock committed the first POST and cut its answer, and listed new rows ${LAG_MS} ms late)\n${tail}`
      );
    }
    return { detail: posts > 0 ? `${posts} POST /payouts, the first answer dropped: one payout` : undefined };
  } finally {
    await srv.close();
  }
}

function runAsTest(b) {
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
  return r.status === 0 ? undefined : `${r.stdout}${r.stderr}`.trim().split('\n').slice(-30).join('\n');
}

const runnable = checked.filter((x) => compileOk.has(x));
for (const b of runnable.filter((x) => x.kind === 'check')) pass(b);
const queue = runnable.filter((x) => x.kind === 'run');
const runOne = async () => {
  for (let b = queue.shift(); b; b = queue.shift()) {
    const result = await runAgainstMock(b);
    if (typeof result === 'string') fail(b, result);
    else pass(b, result.detail);
  }
};
try {
  await Promise.all([runOne(), runOne()]);
  for (const b of runnable.filter((x) => x.kind === 'test')) {
    const why = runAsTest(b);
    if (why === undefined) pass(b);
    else fail(b, why);
  }
} finally {
  if (postgres) (await postgres).stop();
}
// A fixture never judged (skipped as a fragment, say) proves nothing.
for (const b of all.filter((x) => x.expects !== undefined && !x.reported)) {
  failed++;
  console.log(`FAIL ${relative(root, b.file)}:${b.line}: did not fail with "${b.expects}"`);
}

if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
console.log(
  `doc-snippets: ${all.length} blocks; ${skipped} fragments and recipes skipped; compiled under ${CONFIGS.map((c) => c.name).join(' and ')}`,
);
console.log(`doc-snippets: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
