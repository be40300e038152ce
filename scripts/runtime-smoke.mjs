/**
 * A smoke suite of the built main entry that any runtime can run: Node, Bun, Deno. It imports only
 * `../dist/index.js` and the runtime's web globals (fetch, Blob, AbortController), no `node:` modules, and
 * talks to a mock served on 127.0.0.1 by `scripts/runtime-mock-server.mjs`.
 *
 *   node scripts/runtime-smoke.mjs <baseUrl>
 *   bun scripts/runtime-smoke.mjs <baseUrl>
 *   deno run --node-modules-dir=manual --allow-net=127.0.0.1 --allow-env --allow-read \
 *     scripts/runtime-smoke.mjs <baseUrl>
 *
 * Ends with `runtime-smoke: N passed, M failed`; exits 1 when any check failed.
 */
import { APIUserAbortError, createExternalReference, NotFoundError, PaymentsClient } from '../dist/index.js';

const g = globalThis;
const runtime = g.Deno
  ? `deno ${g.Deno.version.deno}`
  : g.Bun
    ? `bun ${g.Bun.version}`
    : `node ${g.process?.versions?.node}`;
const args = g.Deno ? g.Deno.args : (g.process?.argv.slice(2) ?? []);
const exit = (code) => (g.Deno ? g.Deno.exit(code) : g.process.exit(code));

const baseUrl = args[0];
if (!baseUrl || !/^http:\/\/127\.0\.0\.1:\d+\//.test(baseUrl)) {
  console.log('usage: runtime-smoke.mjs http://127.0.0.1:<port>/api/v1/external');
  exit(2);
}

// The key the mock accepts by default (DEFAULT_API_KEY of payments-service-sdk/testing): a tenant key
// allowlisted for 127.0.0.1, so payouts and X-Account-Id are allowed.
const client = new PaymentsClient({ apiKey: 'sk_test_mock', baseUrl, logLevel: 'off', timeout: 15_000 });
const KNOWN = { bankCode: '000014', accountNumber: '0123456788' };
const UNKNOWN = { bankCode: '000014', accountNumber: '0123456789' };

let passed = 0;
let failed = 0;
function assert(condition, message) {
  if (!condition) throw new Error(message);
}
async function check(name, fn) {
  const started = Date.now();
  try {
    const detail = await fn();
    passed++;
    console.log(`ok   ${name}${detail ? `: ${detail}` : ''} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error?.stack ?? error}`);
  }
}
async function rejects(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

console.log(`runtime-smoke on ${runtime} against ${baseUrl}`);

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
  assert(holder.accountName === 'ADAEZE KEMI OKAFOR', `accountName ${holder.accountName}`);
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
  const outcome = await client.payouts.lookupBeforeRetry(
    {
      amount: '2500.00',
      currency: 'NGN',
      beneficiary: {
        ...KNOWN,
        accountName: holder?.accountName ?? 'ADAEZE KEMI OKAFOR',
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

await check('payerNames.create with a Blob and bytes (streamed multipart)', async () => {
  // Larger than the encoder's 64 KiB chunk, so the body goes out as several stream chunks.
  const pdf = new Uint8Array(200 * 1024).fill(0x20);
  pdf.set(new TextEncoder().encode('%PDF-1.4\n'));
  const blob = new Blob([pdf], { type: 'application/pdf' });
  const bytes = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
  const created = await client.payerNames.create({
    entity_type: 'business',
    display_name: `Smoke ${runtime} ${Date.now().toString(36)}`,
    country: 'NG',
    address_line: '1 Marina Road',
    city: 'Lagos',
    state_province: 'Lagos',
    registration_number: 'RC123456',
    documents: [
      { file: blob, fileName: 'certificate.pdf', description: 'Certificate of incorporation' },
      { file: bytes, fileName: 'memo.pdf' },
    ],
  });
  const docs = created.documents;
  assert(docs.length === 2, `${docs.length} documents`);
  assert(docs[0].fileName === 'certificate.pdf', `fileName ${docs[0].fileName}`);
  assert(docs[0].fileSize === blob.size, `fileSize ${docs[0].fileSize}, sent ${blob.size}`);
  assert(docs[0].description === 'Certificate of incorporation', `description ${docs[0].description}`);
  assert(docs[1].fileSize === bytes.byteLength, `fileSize ${docs[1].fileSize}, sent ${bytes.byteLength}`);
  return `${created.status}, ${docs.map((d) => d.fileSize).join(' + ')} bytes`;
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

console.log(`runtime-smoke: ${passed} passed, ${failed} failed`);
exit(failed ? 1 : 0);
