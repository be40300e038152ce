/**
 * The smoke checks of the built main entry, shared by every runtime: `runtime-smoke.mjs` runs them on Node,
 * Bun and Deno, `runtime-worker.mjs` inside workerd and edge-runtime. They take the SDK as an argument and use
 * only web globals (fetch, Blob, AbortController, TextEncoder), never a `node:` module, because the edge
 * runtimes have none.
 */

/** `node 24.21.0`, `bun 1.4.5`, `deno 2.9.6`, `workerd`, `edge-runtime`: for the output and the payloads. */
export function describeRuntime() {
  const g = globalThis;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  // edge-runtime sets the global EdgeRuntime (Vercel's documented way to detect it); workerd says who it is in
  // navigator.userAgent.
  if (typeof g.EdgeRuntime === 'string') return 'edge-runtime';
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  return 'unknown runtime';
}

/**
 * Whether `window` and `document` are defined, as the SDK's browser guard asks it: a runtime with both looks
 * like a browser to it, which then refuses to construct a client unless `dangerouslyAllowBrowser: true`.
 */
export function browserGlobals() {
  const g = globalThis;
  return { window: g.window !== undefined, document: g.document !== undefined };
}

/** One result as a line: `ok   name: detail (12 ms)`, `FAIL name: error`, `skip name: reason`. */
export function formatResult(r) {
  if (r.status === 'pass') return `ok   ${r.name}${r.detail ? `: ${r.detail}` : ''} (${r.ms} ms)`;
  if (r.status === 'skip') return `skip ${r.name}: ${r.detail}`;
  return `FAIL ${r.name}: ${r.detail}`;
}

/** The closing line that `runtimes.mjs` parses. */
export function summaryLine(results) {
  const count = (status) => results.filter((r) => r.status === status).length;
  return `runtime-smoke: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`;
}

class Skip {
  constructor(reason) {
    this.reason = reason;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function rejects(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

// The key the mock accepts by default (DEFAULT_API_KEY of payments-service-sdk/testing): a tenant key
// allowlisted for 127.0.0.1, so payouts and X-Account-Id are allowed.
const API_KEY = 'sk_test_mock';
const KNOWN = { bankCode: '000014', accountNumber: '0123456788' };
const UNKNOWN = { bankCode: '000014', accountNumber: '0123456789' };
const HOLDER = 'ADAEZE KEMI OKAFOR';

/**
 * Runs every check in order against the mock at `baseUrl`; resolves with `{ name, status, detail, ms }` per
 * check, `status` being `pass`, `fail` or `skip`. Never rejects.
 *
 * options.runtime    label sent in remarks and names (default: describeRuntime())
 * options.file       `{ path, bytes }` of a PDF on disk, for the upload from a path
 * options.noFiles    why this runtime cannot upload from a path: the check is skipped with this reason
 * options.onResult   called with each result as it comes (the CLI prints as it goes)
 */
export async function runChecks(sdk, baseUrl, options = {}) {
  const { APIUserAbortError, createExternalReference, NotFoundError, PaymentsClient } = sdk;
  const { createPayerNameWithDocuments, lookupBeforeRetry } = sdk;
  const runtime = options.runtime ?? describeRuntime();
  const results = [];

  async function check(name, fn) {
    const started = Date.now();
    let result;
    try {
      const detail = await fn();
      result = { name, status: 'pass', detail: detail ?? '', ms: Date.now() - started };
    } catch (error) {
      result =
        error instanceof Skip
          ? { name, status: 'skip', detail: error.reason, ms: 0 }
          : { name, status: 'fail', detail: String(error?.stack ?? error), ms: Date.now() - started };
    }
    results.push(result);
    options.onResult?.(result);
  }

  const { window, document } = browserGlobals();
  await check('new PaymentsClient without dangerouslyAllowBrowser', async () => {
    // What users write: no flag. Once the browser guard lands, this throws in any runtime with both `window`
    // and `document`, and this check is the one that says so.
    const plain = new PaymentsClient({ apiKey: API_KEY, baseUrl, logLevel: 'off', timeout: 15_000 });
    const banks = await plain.banks.list();
    assert(banks.length > 0, 'no banks');
    return `${banks.length} banks; window ${window ? 'defined' : 'absent'}, document ${document ? 'defined' : 'absent'}`;
  });
  await check(
    'tracing channels: published where node:diagnostics_channel exists, absent elsewhere',
    async () => {
      // Reached as the SDK reaches it: no import a bundler or an edge runtime would have to resolve.
      const dc = globalThis.process?.getBuiltinModule?.('node:diagnostics_channel');
      const seen = [];
      const onStart = (context) => seen.push(`${context.method} ${context.urlTemplate}`);
      dc?.subscribe('tracing:payments-service-sdk:request:start', onStart);
      try {
        const traced = new PaymentsClient({ apiKey: API_KEY, baseUrl, logLevel: 'off', timeout: 15_000 });
        assert((await traced.banks.list()).length > 0, 'no banks');
      } finally {
        dc?.unsubscribe('tracing:payments-service-sdk:request:start', onStart);
      }
      if (!dc) return 'diagnostics_channel absent: nothing published, the call works';
      // Bun's tracingChannel has no boolean `hasSubscribers` (Node 22's API): the SDK then publishes nothing.
      if (typeof dc.tracingChannel?.('payments-service-sdk:request').hasSubscribers !== 'boolean') {
        assert(seen.length === 0, `published ${JSON.stringify(seen)}`);
        return 'diagnostics_channel without tracingChannel.hasSubscribers: nothing published, the call works';
      }
      assert(seen.join() === 'GET /banks', `published ${JSON.stringify(seen)}`);
      return 'diagnostics_channel present: GET /banks published';
    },
  );
  await check('validation path (compiled on Node, Bun and Deno, interpreted on the edge)', async () => {
    // The client states its path at debug level when it is made; the runtimes that forbid code generation
    // (Workers, the edge runtime) get the build without zod's compiler through package.json's `#compiler`.
    const lines = [];
    const logger = { debug: (line) => lines.push(line), info() {}, warn() {}, error() {} };
    const client = new PaymentsClient({
      apiKey: API_KEY,
      baseUrl,
      logLevel: 'debug',
      logger,
      timeout: 15_000,
    });
    const line = lines.find((l) => l.includes('responses validated by'));
    assert(line, `no validation line in ${JSON.stringify(lines)}`);
    const edge = runtime === 'workerd' || runtime === 'edge-runtime';
    const expected = edge ? 'interpreted' : 'compiled';
    assert(line.includes(`zod's ${expected} parsers`), `expected ${expected}: ${line}`);
    // Two walks, past the compile threshold (64 rows), the later rows checked by that path.
    let rows = 0;
    for (let walk = 0; walk < 2; walk++)
      for await (const tx of client.transactions.list({ pageSize: 10 })) if (tx.id) rows++;
    assert(rows > 0, 'no rows');
    return `${line.replace(/^.*responses validated by /, '')} (${rows} rows walked)`;
  });
  let client;
  try {
    client = new PaymentsClient({
      apiKey: API_KEY,
      baseUrl,
      logLevel: 'off',
      timeout: 15_000,
      // Only where the runtime looks like a browser, so that the other checks still run there; the check
      // above has already reported it.
      ...(window && document ? { dangerouslyAllowBrowser: true } : {}),
    });
  } catch (error) {
    await check('new PaymentsClient', () => Promise.reject(error));
    return results;
  }

  let bank;
  await check('banks.list', async () => {
    const banks = await client.banks.list();
    assert(Array.isArray(banks) && banks.length > 0, 'no banks');
    bank = banks.find((b) => b.bankCode === KNOWN.bankCode);
    assert(bank, `bank ${KNOWN.bankCode} not listed`);
    return `${banks.length} banks`;
  });

  let holder;
  await check('banks.lookup', async () => {
    holder = await client.banks.lookup(KNOWN);
    assert(holder.accountName === HOLDER, `accountName ${holder.accountName}`);
    return holder.accountName;
  });

  await check('NotFoundError on an unknown account (typed error)', async () => {
    const error = await rejects(client.banks.lookup(UNKNOWN));
    assert(error instanceof NotFoundError, `got ${error?.name}: ${error?.message}`);
    assert(error.status === 404, `status ${error.status}`);
    return `${error.name} ${error.status}`;
  });

  await check('transactions.list: for await across pages', async () => {
    const pageSize = 7;
    const first = await client.transactions.list({ pageSize });
    assert(first.hasNextPage(), 'only one page');
    const ids = new Set();
    let count = 0;
    for await (const tx of client.transactions.list({ pageSize })) {
      count++;
      ids.add(tx.id ?? JSON.stringify(tx));
    }
    assert(count > pageSize, `${count} rows`);
    assert(ids.size === count, `${count - ids.size} duplicate rows`);
    if (first.totalCount !== undefined) assert(count === first.totalCount, `${count} of ${first.totalCount}`);
    return `${count} rows, ${Math.ceil(count / pageSize)} pages`;
  });

  await check('payouts.lookupBeforeRetry (created)', async () => {
    const externalReference = createExternalReference('smoke');
    const outcome = await lookupBeforeRetry(
      client,
      {
        amount: '2500.00',
        currency: 'NGN',
        beneficiary: {
          ...KNOWN,
          accountName: holder?.accountName ?? HOLDER,
          bankName: holder?.bankName ?? bank?.bankName ?? 'Access Bank',
          email: 'smoke@example.com',
        },
        remark: `runtime smoke ${runtime}`,
        externalReference,
      },
      { visibilityWaits: [10, 50] },
    );
    assert(outcome.status === 'created', `status ${outcome.status}`);
    assert(outcome.attempts === 1, `${outcome.attempts} attempts`);
    assert(outcome.externalReference === externalReference, 'reference changed');
    return `${outcome.status}, ${outcome.attempts} attempt`;
  });

  const payerName = (documents) => ({
    entity_type: 'business',
    display_name: `Smoke ${runtime} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    country: 'NG',
    address_line: '1 Marina Road',
    city: 'Lagos',
    state_province: 'Lagos',
    registration_number: 'RC123456',
    documents,
  });

  await check('createPayerNameWithDocuments with a Blob and bytes (streamed multipart)', async () => {
    // Larger than the encoder's 64 KiB chunk, so the body goes out as several stream chunks.
    const pdf = new Uint8Array(200 * 1024).fill(0x20);
    pdf.set(new TextEncoder().encode('%PDF-1.4\n'));
    const blob = new Blob([pdf], { type: 'application/pdf' });
    const bytes = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const created = await createPayerNameWithDocuments(
      client,
      payerName([
        { file: blob, fileName: 'certificate.pdf', description: 'Certificate of incorporation' },
        { file: bytes, fileName: 'memo.pdf' },
      ]),
    );
    const docs = created.documents;
    assert(docs.length === 2, `${docs.length} documents`);
    assert(docs[0].fileName === 'certificate.pdf', `fileName ${docs[0].fileName}`);
    assert(docs[0].fileSize === blob.size, `fileSize ${docs[0].fileSize}, sent ${blob.size}`);
    assert(docs[0].description === 'Certificate of incorporation', `description ${docs[0].description}`);
    assert(docs[1].fileSize === bytes.byteLength, `fileSize ${docs[1].fileSize}, sent ${bytes.byteLength}`);
    return `${created.status}, ${docs.map((d) => d.fileSize).join(' + ')} bytes`;
  });

  await check('createPayerNameWithDocuments from a file path (streamed from disk)', async () => {
    if (options.noFiles) throw new Skip(options.noFiles);
    if (!options.file) throw new Skip('no file given on the command line');
    const { path, bytes } = options.file;
    const created = await createPayerNameWithDocuments(
      client,
      payerName([{ file: path, description: 'From disk' }]),
    );
    const [doc] = created.documents;
    const name = path.split(/[\\/]/).pop();
    assert(doc?.fileName === name, `fileName ${doc?.fileName}, expected ${name}`);
    assert(doc.fileSize === bytes, `fileSize ${doc.fileSize}, file has ${bytes}`);
    return `${doc.fileName}, ${doc.fileSize} bytes`;
  });

  await check('abort signal: already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejects(client.banks.list({ signal: controller.signal }));
    assert(error instanceof APIUserAbortError, `got ${error?.name}: ${error?.message}`);
    return error.name;
  });

  await check('abort signal: in flight', async () => {
    const controller = new AbortController();
    const started = Date.now();
    // The mock holds this request for 5 s; the abort after 100 ms must end it at once.
    const pending = client.banks.list({
      signal: controller.signal,
      maxRetries: 0,
      headers: { 'X-Smoke-Delay': '5000' },
    });
    setTimeout(() => controller.abort(), 100);
    const error = await rejects(pending);
    const elapsed = Date.now() - started;
    assert(error instanceof APIUserAbortError, `got ${error?.name}: ${error?.message}`);
    assert(elapsed < 3000, `took ${elapsed} ms`);
    return `${error.name} after ${elapsed} ms`;
  });

  await check('client.forAccount (X-Account-Id)', async () => {
    const accounts = await client.accounts.list({ pageSize: 50 });
    const others = accounts.data.map((a) => String(a.id));
    assert(others.length > 0, 'no accounts in the tenancy');
    const mine = await client.transactions.list({ pageSize: 100 });
    const mineIds = new Set(mine.data.map((tx) => tx.id));
    const scoped = client.forAccount(others[0]);
    assert(scoped.accountId === others[0], 'accountId not set');
    const theirs = await scoped.transactions.list({ pageSize: 100 });
    assert(theirs.data.length > 0, 'scoped account has no transactions');
    assert(
      theirs.data.every((tx) => !mineIds.has(tx.id)),
      "scoped list shows the main account's transactions",
    );
    const stranger = client.forAccount('00000000-0000-4000-8000-000000000000');
    const error = await rejects(stranger.transactions.list({ pageSize: 1 }));
    assert(error instanceof NotFoundError, `outside the tenancy: got ${error?.name}`);
    return `${others.length} accounts, ${theirs.data.length} scoped rows`;
  });

  return results;
}
