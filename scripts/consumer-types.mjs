#!/usr/bin/env node
/**
 * Proves that the published types compile in a user's project, whatever their compiler and settings: packs the
 * SDK (after `npm run build`), installs the tarball into throwaway projects and runs `tsc --noEmit` over a file
 * written the way a merchant uses the SDK (and one setting up `payments-service-sdk/otel` with `@opentelemetry/api`), for TypeScript 5.9, 6.0 and 7.0 (the native compiler) x module
 * settings (nodenext from an ESM `.ts` and from a `.cts`, esnext + bundler, preserve) x with and without
 * @types/node (and msw), plus TypeScript 5.9 with node10 resolution. Every cell has `skipLibCheck: false`, so
 * every `.d.ts` the SDK ships is checked, and leaves `types` unset unless @types/node is installed (TypeScript 6
 * and later then default to `types: []`).
 *
 *   node scripts/consumer-types.mjs              build, pack, check every cell
 *   node scripts/consumer-types.mjs --no-build   use dist/ as it is (CI builds just before)
 *
 * Compilers are installed once into the cache `scripts/runtimes.mjs` uses (`$PAYMENTS_SDK_RUNTIMES_CACHE`, else
 * `$XDG_CACHE_HOME/payments-sdk-runtimes`, else `~/.cache/payments-sdk-runtimes`), one `typescript@<version>`
 * folder each, from their pins (scripts/pins/typescript-*: an exact version and a lock). Consumer dependencies
 * are installed twice per run, once per variant, each from its pins (consumer-bare, consumer-node) with `npm ci`;
 * the cells of a variant are sub-folders sharing its node_modules. Prints one line per cell and closes with
 * `consumer-types: N passed, M failed`; exits 1 when any failed.
 */
import './npm-env.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packSdk } from './pack.mjs';
import { CI_ARGS, pinFiles, pinnedVersion, preparePinned, root } from './pins.mjs';

/** Each compiler is a pin of scripts/pins (`npm run pins:update` bumps them); 7.x is the native (Go) compiler. */
const COMPILER_PINS = ['typescript-5.9', 'typescript-6.0', 'typescript-7.0'];
const TYPESCRIPTS = COMPILER_PINS.map((pin) => pinnedVersion(pin, 'typescript'));
const MINUTE = 60_000;
const cache = resolve(
  process.env.PAYMENTS_SDK_RUNTIMES_CACHE ??
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payments-sdk-runtimes'),
);
const work = mkdtempSync(join(tmpdir(), 'sdk-consumer-types-'));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const tail = (text, lines = 30) => text.trimEnd().split('\n').slice(-lines).join('\n');
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** Runs a command; resolves with its exit code and output (never rejects). Killed after `timeout` ms. */
function run(cmd, args, { cwd = root, timeout = 5 * MINUTE } = {}) {
  return new Promise((done) => {
    let output = '';
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      output += `\n[killed after ${seconds(timeout)}]`;
      child.kill('SIGKILL');
    }, timeout);
    const add = (d) => {
      output += d;
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.on('error', add);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 128 : -1), output });
    });
  });
}

const tscOf = (dir) => join(dir, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * True when `dir` holds a tsc that reports `version` (7.x's `bin/tsc` starts the native binary), installed from
 * the pin's lock as it is now.
 */
async function works(dir, version, pin) {
  if (!existsSync(tscOf(dir))) return false;
  const lock = join(dir, 'package-lock.json');
  if (!existsSync(lock) || readFileSync(lock, 'utf8') !== readFileSync(pinFiles(pin).lock, 'utf8'))
    return false;
  const { code, output } = await run(process.execPath, [tscOf(dir), '--version'], { timeout: MINUTE });
  return code === 0 && output.includes(version);
}

/**
 * The compiler's folder in the cache, installed first when missing: into a scratch folder that is renamed into
 * place, so an interrupted install never leaves a half-filled entry (as in `scripts/runtimes.mjs`).
 */
async function installTypescript(pin, version) {
  const dir = join(cache, `typescript@${version}`);
  if (await works(dir, version, pin)) return dir;
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(`${dir}.tmp-`);
  try {
    preparePinned(pin, scratch);
    const { code, output } = await run('npm', CI_ARGS, { cwd: scratch });
    if (code !== 0 || !(await works(scratch, version, pin))) {
      throw new Error(`npm ci of the pins ${pin} failed:\n${tail(output)}`);
    }
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(scratch, dir);
    } catch (error) {
      if (!(await works(dir, version, pin))) throw error; // another run filled the entry meanwhile
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dir;
}

/** The two consumer projects: the tarball alone, and with @types/node and msw as a Node user's tests have. */
const VARIANTS = [
  { id: '-node', dir: 'bare', pin: 'consumer-bare' },
  { id: '+node', dir: 'with-node', pin: 'consumer-node', node: true },
];

/** Module settings; `file` is the source's name, `type` the cell's package.json `type`. */
const MODULES = [
  { id: 'nodenext-esm', file: 'index.ts', type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
  { id: 'nodenext-cts', file: 'index.cts', type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
  { id: 'bundler', file: 'index.ts', type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  { id: 'preserve', file: 'index.ts', type: 'module', module: 'preserve' },
  // node10 is deprecated in TypeScript 6 and gone in 7, so only 5.9 checks it, and without msw: msw 3's own
  // declarations import `@mswjs/interceptors/WebSocket`, which node10 cannot resolve (nor `msw/node`), so any
  // node10 project with msw 3 and `skipLibCheck: false` fails inside msw, with or without this SDK.
  // `esModuleInterop` as `tsc --init` has set it since 2.7 (6.0 deprecates turning it off): zod's `.d.cts` need it.
  {
    id: 'node10',
    file: 'index.ts',
    type: 'commonjs',
    module: 'commonjs',
    moduleResolution: 'node10',
    esModuleInterop: true,
    only: '5.9.3',
    bare: true,
  },
];

/**
 * What a merchant writes: the three entry points, a client on the mock's `fetch`, paging with `for await`, a list,
 * a payout body, an error narrowed with `instanceof`, a payer name with documents, the outbox, a payout tracked,
 * observed and reconciled. Under `noUncheckedIndexedAccess`
 * and `exactOptionalPropertyTypes`, so optional fields and indexed reads are typed as users see them. With msw
 * (3), `setupServer(...mock.handlers)`; msw 3 renamed msw 2's `onUnhandledRequest` to `onUnhandledFrame`.
 */
function source({ node, msw }) {
  return `import {
  APIError,
  createExternalReference,
  isLegacyTransaction,
  PaymentsClient,
  type PayerNameDocumentInput,
  type PayoutCreateParams,
  RateLimitError,
  RequestValidationError,
  type Transaction,
} from 'payments-service-sdk';
import {
  createPayoutOutbox,
  memoryOutboxStore,
  type PayoutRecord,
  type PostgresQueryable,
  postgresOutboxStore,
  reconciliationCsv,
} from 'payments-service-sdk/outbox';
import { trackPayout, waitForFinal } from 'payments-service-sdk/payouts';
import { createPaymentsMock, DEFAULT_API_KEY, KNOWN_ACCOUNT_NUMBER } from 'payments-service-sdk/testing';
import { createPayerNameWithDocuments } from 'payments-service-sdk/uploads';
${node ? "import { createReadStream } from 'node:fs';\nimport { Readable } from 'node:stream';\n" : ''}${msw ? "import { setupServer } from 'msw/node';\n" : ''}
const mock = createPaymentsMock({ seed: 1 });
const client = new PaymentsClient({ apiKey: DEFAULT_API_KEY, baseUrl: mock.baseUrl, fetch: mock.fetch });
${msw ? "\nexport const server = setupServer(...mock.handlers);\nserver.listen({ onUnhandledFrame: 'error' });\n" : ''}
// The SDK's msw import is under @ts-ignore: typed handlers with msw installed, any[] without it.
type IsAny<T> = 0 extends 1 & T ? true : false;
export const handlersAreAny: IsAny<(typeof mock.handlers)[number]> = ${!msw};
export async function payInvoice(invoice: string): Promise<string[]> {
  const seen: string[] = [];
  let received = 0;
  for await (const tx of client.transactions.list({ status: 'completed', pageSize: 100 })) {
    received += tx.source_amount ?? 0;
    seen.push(isLegacyTransaction(tx) ? tx.type : \`\${tx.id} \${tx.description ?? ''}\`);
  }
  seen.push(String(received));
  const banks = await client.banks.list();
  const bank = banks[0];
  if (bank === undefined) throw new Error('no banks');
  const body: PayoutCreateParams = {
    amount: '5000.50',
    currency: 'NGN',
    beneficiary: {
      accountName: 'ADAEZE KEMI OKAFOR',
      accountNumber: KNOWN_ACCOUNT_NUMBER,
      bankName: bank.bankName,
      bankCode: bank.bankCode,
      email: 'ap@example.com',
    },
    remark: \`Invoice \${invoice}\`,
    externalReference: createExternalReference('inv'),
  };
  try {
    const payout = await client.payouts.create(body);
    seen.push(\`\${payout.id} \${payout.amount}\`);
    // A response's minor amount goes back as amountMinor; under a ceiling, checked before anything is sent.
    const limited = client.withOptions({ payoutLimits: { NGN: '5000000.00', USD: '10000.00' } });
    const again: PayoutCreateParams = { amountMinor: payout.destination_amount, currency: 'NGN', beneficiary: body.beneficiary };
    seen.push(String(limited.payouts.check(again).amount));
  } catch (error) {
    if (error instanceof RequestValidationError) seen.push(error.field);
    else if (error instanceof RateLimitError) seen.push(String(error.retryAfter ?? 0));
    else if (error instanceof APIError) seen.push(\`\${error.status} \${error.code ?? ''} \${error.requestId ?? ''}\`);
    else throw error;
  }
  const documents: PayerNameDocumentInput[] = [
    { file: new Uint8Array([37, 80, 68, 70]), fileName: 'a.pdf' },
${node ? "    { file: Readable.from([Buffer.from('%PDF')]), fileName: 'b.pdf', size: 4 },\n    { file: createReadStream('id.png'), fileName: 'id.png', size: 48_213 },\n    { file: Buffer.from('%PDF'), fileName: 'c.pdf', description: 'Register' },\n" : ''}  ];
  const name = await createPayerNameWithDocuments(client, {
    entity_type: 'business',
    display_name: 'Acme Payments',
    country: 'NG',
    address_line: '1 Marina Road',
    city: 'Lagos',
    state_province: 'Lagos',
    documents,
  });
  seen.push(name.status, String(mock.handlers.length));
  // The outbox: a payout recorded, then settled; a pg-shaped client types as the PostgreSQL store's.
  const outbox = createPayoutOutbox({ client, store: memoryOutboxStore(), visibilityWaits: [0] });
  const { reference, enqueued } = await outbox.enqueue(body);
  const record: PayoutRecord = await outbox.settle(reference);
  if (!enqueued) seen.push(record.state);
  if (record.state === 'recovered') seen.push(record.transaction?.status ?? '');
  else if (record.state === 'unknown') seen.push(record.reason ?? '', String(record.attempts.length));
  // A payout's life: tracked from the listing, observed from a webhook, reconciled.
  for await (const change of trackPayout(client, record.reference, { since: record.createdAt, afterFinalMs: 0 })) {
    seen.push(\`\${change.kind} \${change.status} \${change.final} \${change.uetr ?? ''}\`);
  }
  const row: Transaction = await waitForFinal(client, record.reference, { since: record.createdAt });
  const observed = await outbox.observe(row);
  seen.push(String(observed.changes.map((c) => c.seq)), observed.record?.status ?? '');
  const report = await outbox.reconcile({ from: record.createdAt, to: new Date() });
  seen.push(reconciliationCsv(report), ...report.rows.map((r) => r.kind));
  const pgLike: PostgresQueryable = { query: async () => ({ rows: [] }) };
  const durable = createPayoutOutbox({ client, store: postgresOutboxStore({ client: pgLike }) });
  await durable.enqueue(body, { tx: pgLike });
  const counted: number = (await durable.count()).states.unknown;
  seen.push(String(counted));
  return seen;
}
`;
}

/** The otel entry as a merchant sets it up, with their own `@opentelemetry/api` (its optional peer). */
const OTEL_SOURCE = `import { trace } from '@opentelemetry/api';
import { type CallContext, instrumentPayments, type PaymentsInstrumentation } from 'payments-service-sdk/otel';

export const instrumentation: PaymentsInstrumentation = instrumentPayments({ tracerProvider: trace.getTracerProvider() });
export const operation = (context: CallContext): string => \`\${context.operation} \${context.outcome ?? ''}\`;
export function stop(): void {
  instrumentation.disable();
}
`;

/** One cell's project: a folder in its variant's project, so node_modules (and @types) resolve from there. */
function writeCell(variantDir, ts, mod, variant) {
  const dir = join(variantDir, `ts${ts}-${mod.id}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), json({ name: 'consumer', private: true, type: mod.type }));
  const compilerOptions = {
    // Node 22's language level; left unset, 5.9 would take ES5 (no async iterables) under bundler/preserve.
    target: 'es2022',
    module: mod.module,
    ...(mod.moduleResolution ? { moduleResolution: mod.moduleResolution } : {}),
    ...(mod.esModuleInterop ? { esModuleInterop: true } : {}),
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
    ...(variant.node ? { types: ['node'] } : {}),
  };
  const otelFile = mod.file.replace('index', 'otel');
  writeFileSync(join(dir, 'tsconfig.json'), json({ compilerOptions, files: [mod.file, otelFile] }));
  writeFileSync(join(dir, mod.file), source({ node: variant.node, msw: variant.node }));
  writeFileSync(join(dir, otelFile), OTEL_SOURCE);
  return dir;
}

/** Installs a variant's project from its pins, with the tarball, without install scripts (types only). */
async function installVariant(variant, tarball) {
  const dir = preparePinned(variant.pin, join(work, variant.dir), { 'payments-service-sdk': tarball });
  const { code, output } = await run('npm', [...CI_ARGS, '--ignore-scripts'], { cwd: dir });
  if (code !== 0) throw new Error(`npm ci (${variant.id}) failed:\n${tail(output)}`);
  // The bare variant is only worth running if nothing brought @types/node in through the SDK's dependencies.
  if (!variant.node && existsSync(join(dir, 'node_modules', '@types', 'node'))) {
    throw new Error('@types/node was installed in the bare project: a dependency of the SDK pulls it in');
  }
  return dir;
}

/** Starts `jobs` with at most `limit` running at a time; one promise per job, in the jobs' order. */
function pool(jobs, limit) {
  const settle = [];
  const promises = jobs.map(() => new Promise((done) => settle.push(done)));
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      settle[i](await jobs[i]());
    }
  };
  for (let k = 0; k < limit; k++) worker();
  return promises;
}

async function main() {
  const started = Date.now();
  if (!process.argv.includes('--no-build')) {
    const b = await run('npm', ['run', '-s', 'build']);
    if (b.code !== 0) throw new Error(`npm run build failed:\n${tail(b.output)}`);
  }
  // dist/ was just built (or, with --no-build, by CI's build step).
  const tarball = packSdk(work);

  // Compilers and the two projects install side by side; each step is mostly waiting on the network or disk.
  const [compilers, projects] = await Promise.all([
    Promise.all(COMPILER_PINS.map((pin, i) => installTypescript(pin, TYPESCRIPTS[i]))),
    Promise.all(VARIANTS.map((v) => installVariant(v, tarball))),
  ]);
  console.log(`typescript cache: ${cache} (ready after ${seconds(Date.now() - started)})`);

  const cells = [];
  TYPESCRIPTS.forEach((ts, t) => {
    for (const mod of MODULES.filter((m) => !m.only || m.only === ts)) {
      VARIANTS.forEach((variant, v) => {
        if (mod.bare && variant.node) return;
        const dir = writeCell(projects[v], ts, mod, variant);
        cells.push({ label: `ts${ts} ${mod.id} ${variant.id}`, dir, tsc: tscOf(compilers[t]) });
      });
    }
  });

  // Two at a time: the machines this runs on have two cores, and tsc is mostly single-threaded.
  const limit = Math.max(1, Math.min(2, availableParallelism()));
  const pending = pool(
    cells.map((cell) => async () => {
      const t0 = Date.now();
      const r = await run(process.execPath, [cell.tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
        cwd: cell.dir,
        timeout: 3 * MINUTE,
      });
      return { ok: r.code === 0, ms: Date.now() - t0, output: r.output };
    }),
    limit,
  );
  // Printed in cell order as each finishes; a failure shows its first compiler errors.
  const results = [];
  for (const [i, promise] of pending.entries()) {
    const { ok, ms, output } = await promise;
    const errors = output.split('\n').filter((l) => l.trim() !== '');
    const detail = ok ? '' : `\n  ${errors.slice(0, 8).join('\n  ')}`;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${cells[i].label} (${seconds(ms)})${detail}`);
    results.push(ok);
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`(${seconds(Date.now() - started)} in all)`);
  console.log(`consumer-types: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.log(error?.stack ?? String(error));
  console.log('consumer-types: 0 passed, 1 failed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
